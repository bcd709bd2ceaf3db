// The three ways to get a multiple-choice answer out of a Chat Completions server, most constrained
// first: the distribution over one answer token, a JSON schema whose only field is an enum of the
// labels, and a validated reading of a free-text answer.
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { readChoiceAnswer, type ChoiceQuestion as Question } from "../choices.js";
import { ModelError } from "../errors.js";
import type { RequestParam } from "./failures.js";
import { clip } from "../../text/cut.js";

export type ChoiceStrategy = "logprobs" | "json_schema" | "text";

export type ChoiceParams = Omit<ChatCompletionCreateParamsNonStreaming, "model">;

export type Send = (params: ChoiceParams) => Promise<ChatCompletion>;

/** A strategy picked an answer, or says why not; `unsupported` when the server cannot do it at all. */
export type ChoiceOutcome = { index: number } | { failed: string; unsupported?: boolean };

/** The parameters whose refusal means the server does not offer the strategy. */
export const STRATEGY_PARAMS: Record<ChoiceStrategy, readonly RequestParam[]> = {
  logprobs: ["logprobs", "top_logprobs", "logit_bias"],
  json_schema: ["response_format"],
  text: [],
};

export interface ChoiceQuestion extends Question {
  messages: ChatCompletionMessageParam[];
}

export function firstMessage(completion: ChatCompletion, node: string) {
  const choice = (completion as Partial<ChatCompletion> | null | undefined)?.choices?.[0];
  if (!choice || typeof choice.message !== "object" || choice.message === null) {
    throw new ModelError(
      node,
      "malformed",
      `the server's answer is not a chat completion: ${clip(JSON.stringify(completion) ?? "", 200)}`,
    );
  }
  return choice;
}

const logSumExp = (xs: number[]) => {
  const max = Math.max(...xs);
  return max + Math.log(xs.reduce((sum, x) => sum + Math.exp(x - max), 0));
};

/**
 * One answer token, pushed onto the labels with logit_bias where their token ids are known, then
 * the most probable label among the token's top log-probabilities (variants such as " B" pooled).
 */
export async function chooseByLogprobs(
  send: Send,
  q: ChoiceQuestion,
  tokenId: (label: string) => number | undefined,
): Promise<ChoiceOutcome> {
  const ids = q.labels.map(tokenId);
  const known = ids.every((id) => id !== undefined);
  // A number such as "27" may be two tokens ("2", "7"), so numbered answers need their token ids.
  if (!known && !/^[A-Z]$/.test(q.labels[0]!)) return { failed: "numbered answers without known token ids" };
  const completion = await send({
    messages: q.messages,
    max_tokens: 1,
    temperature: 0,
    logprobs: true,
    top_logprobs: 20,
    ...(known ? { logit_bias: Object.fromEntries(ids.map((id) => [String(id), 100])) } : {}),
  });
  const choice = firstMessage(completion, q.node);
  const first = choice.logprobs?.content?.[0];
  if (!first) return { failed: "the server returned no log-probabilities", unsupported: true };
  // The top list includes the sampled token; a server that sends no top list still rated that one.
  const candidates = first.top_logprobs?.length ? first.top_logprobs : [first];
  const byLabel = new Map<number, number[]>();
  for (const { token, logprob } of candidates) {
    const i = q.labels.indexOf(token.trim());
    if (i >= 0 && Number.isFinite(logprob)) byLabel.set(i, [...(byLabel.get(i) ?? []), logprob]);
  }
  if (byLabel.size === 0)
    return { failed: `no answer label among the likeliest tokens (${JSON.stringify(first.token)})` };
  const scored = [...byLabel].map(([i, lps]) => ({ i, score: logSumExp(lps) }));
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return { index: scored[0]!.i };
}

/** Structured output: `{ "answer": <label> }` with the labels as an enum. */
export async function chooseByJsonSchema(send: Send, q: ChoiceQuestion): Promise<ChoiceOutcome> {
  const completion = await send({
    messages: q.messages,
    temperature: 0,
    response_format: {
      type: "json_schema",
      json_schema: {
        name: "choice",
        strict: true,
        schema: {
          type: "object",
          properties: { answer: { type: "string", enum: [...q.labels] } },
          required: ["answer"],
          additionalProperties: false,
        },
      },
    },
  });
  const content = firstMessage(completion, q.node).message.content ?? "";
  let answer: unknown;
  try {
    answer = (JSON.parse(content) as { answer?: unknown } | null)?.answer;
  } catch {
    return { failed: `the answer is not JSON: ${JSON.stringify(clip(content, 80))}` };
  }
  const i = typeof answer === "string" ? q.labels.indexOf(answer) : -1;
  return i >= 0 ? { index: i } : { failed: `the answer ${JSON.stringify(answer)} is not one of the labels` };
}

/** The last resort: a free-text answer, accepted only when it names one answer plainly. */
export async function chooseByText(send: Send, q: ChoiceQuestion): Promise<ChoiceOutcome> {
  const content = firstMessage(await send({ messages: q.messages, temperature: 0 }), q.node).message.content ?? "";
  const i = readChoiceAnswer(content, q.choices);
  return i === undefined
    ? { failed: `the answer ${JSON.stringify(clip(content, 120))} names none of ${q.labels.join(", ")}` }
    : { index: i };
}
