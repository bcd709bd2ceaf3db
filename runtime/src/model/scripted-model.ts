import { choiceLabels } from "./choices.js";
import { ModelError } from "./errors.js";
import type {
  ChoiceRequest,
  CompletionRequest,
  ToolCallingModel,
  ToolCompletion,
  ToolCompletionRequest,
} from "./types.js";
import { clip } from "../text/cut.js";

/** A scripted answer, or a function that computes it from the request. */
export type Step<Req, Answer> = Answer | ((req: Req) => Answer | Promise<Answer>);

/** Answers in order (each used once), or one function that answers every request. */
export type Script<Req, Answer> = readonly Step<Req, Answer>[] | ((req: Req) => Answer | Promise<Answer>);

/** A choice: the index, the text of one of the choices, or its label ("A", "B", ...). */
export type ChoiceAnswer = number | string;

/**
 * A text answer: a string, or the pieces it streams in (`["Hel", "lo"]` answers "Hello"). When the
 * request has `onText`, each piece goes to it in turn (a string is one piece) before the answer.
 */
export type TextAnswer = string | readonly string[];

/** A native tool-calling answer: text, tool calls, or both. */
export type ToolAnswer =
  | TextAnswer
  | { text?: TextAnswer; toolCalls?: { id?: string; name: string; arguments: string | object }[] };

export interface ModelScript {
  complete?: Script<CompletionRequest, TextAnswer>;
  choose?: Script<ChoiceRequest, ChoiceAnswer>;
  tools?: Script<ToolCompletionRequest, ToolAnswer>;
}

/** One call the model received, with the answer it gave (absent when it failed). */
export type ScriptedCall =
  | { kind: "complete"; request: CompletionRequest; answer?: string }
  | { kind: "choose"; request: ChoiceRequest; answer?: number }
  | { kind: "tools"; request: ToolCompletionRequest; answer?: ToolCompletion };

type Kind = ScriptedCall["kind"];

/**
 * A deterministic model for tests and examples: it answers from a script and records every request.
 * When a list runs out it throws a ModelError that says which request found it empty.
 */
export class ScriptedModel implements ToolCallingModel {
  readonly provider = "autograms";
  readonly model = "scripted";
  /** Every request, in order, with its answer. */
  readonly calls: ScriptedCall[] = [];
  private readonly used: Record<Kind, number> = { complete: 0, choose: 0, tools: 0 };

  constructor(private readonly script: ModelScript) {}

  /** Scripted answers not used yet (Infinity for a function). */
  get remaining(): Record<Kind, number> {
    const left = (kind: Kind) => {
      const s = this.script[kind];
      return typeof s === "function" ? Infinity : (s?.length ?? 0) - this.used[kind];
    };
    return { complete: left("complete"), choose: left("choose"), tools: left("tools") };
  }

  async complete(req: CompletionRequest): Promise<string> {
    const call: ScriptedCall & { kind: "complete" } = this.record({
      kind: "complete",
      request: { ...req, messages: req.messages.map((m) => ({ ...m })) },
    });
    const answer = await this.next<CompletionRequest, TextAnswer>("complete", req, req.node, () =>
      describeMessages(req.messages),
    );
    const pieces = textPieces(answer);
    if (!pieces)
      throw new ModelError(
        req.node,
        "script",
        `a scripted complete() answer must be a string or an array of strings, not ${JSON.stringify(answer)}`,
      );
    const text = deliver(pieces, req.onText);
    call.answer = text;
    return text;
  }

  async choose(req: ChoiceRequest): Promise<number> {
    const call: ScriptedCall & { kind: "choose" } = this.record({
      kind: "choose",
      request: { ...req, choices: [...req.choices] },
    });
    const answer = await this.next("choose", req, req.node, () => `choices ${JSON.stringify(req.choices)}`);
    const index = choiceIndex(answer, req.choices);
    if (index === undefined) {
      throw new ModelError(
        req.node,
        "script",
        `the scripted answer ${JSON.stringify(answer)} is none of the choices ${JSON.stringify(req.choices)}`,
      );
    }
    call.answer = index;
    return index;
  }

  async completeWithTools(req: ToolCompletionRequest): Promise<ToolCompletion> {
    const call: ScriptedCall & { kind: "tools" } = this.record({
      kind: "tools",
      request: { ...req, messages: req.messages.map((m) => ({ ...m })) },
    });
    const scripted = await this.next<ToolCompletionRequest, ToolAnswer>("tools", req, req.node, () =>
      describeMessages(req.messages),
    );
    const pieces = textPieces(typeof scripted === "object" && !isPieces(scripted) ? (scripted.text ?? "") : scripted);
    if (!pieces)
      throw new ModelError(
        req.node,
        "script",
        `a scripted tools answer's text must be a string or an array of strings, not ${JSON.stringify(scripted)}`,
      );
    const answer = toCompletion(scripted, deliver(pieces, req.onText));
    call.answer = answer;
    return answer;
  }

  private record<C extends ScriptedCall>(call: C): C {
    this.calls.push(call);
    return call;
  }

  private async next<Req, Answer>(kind: Kind, req: Req, node: string, describe: () => string): Promise<Answer> {
    const script = this.script[kind] as Script<Req, Answer> | undefined;
    if (typeof script === "function") return script(req);
    const step = script?.[this.used[kind]];
    if (step === undefined) {
      const had = script?.length ?? 0;
      throw new ModelError(
        node,
        "script",
        `the script has no ${kind} answer left (it had ${had}) for request #${this.calls.length}: ${describe()}`,
      );
    }
    this.used[kind]++;
    return typeof step === "function" ? (step as (r: Req) => Answer | Promise<Answer>)(req) : step;
  }
}

function choiceIndex(answer: unknown, choices: readonly string[]): number | undefined {
  if (typeof answer === "number")
    return Number.isInteger(answer) && answer >= 0 && answer < choices.length ? answer : undefined;
  if (typeof answer !== "string") return undefined;
  const byText = choices.indexOf(answer);
  if (byText >= 0) return byText;
  const byLabel = choiceLabels(choices.length).indexOf(answer);
  return byLabel >= 0 ? byLabel : undefined;
}

const isPieces = (answer: unknown): answer is readonly string[] => Array.isArray(answer);

/** The pieces of a scripted text, or null when it is not text. */
function textPieces(answer: unknown): readonly string[] | null {
  if (typeof answer === "string") return [answer];
  return isPieces(answer) && answer.every((p) => typeof p === "string") ? answer : null;
}

/** Streams the pieces to `onText` (empty ones left out, as a server sends none) and returns the whole text. */
function deliver(pieces: readonly string[], onText: ((delta: string) => void) | undefined): string {
  for (const piece of pieces) if (piece) onText?.(piece);
  return pieces.join("");
}

function toCompletion(answer: ToolAnswer, text: string): ToolCompletion {
  if (typeof answer === "string" || isPieces(answer)) return { text, toolCalls: [], finishReason: "stop" };
  const toolCalls = (answer.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_${i}`,
    name: c.name,
    arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments),
  }));
  return { text, toolCalls, finishReason: toolCalls.length > 0 ? "tool_calls" : "stop" };
}

function describeMessages(messages: readonly { role: string; content: string | null }[]): string {
  const last = messages[messages.length - 1];
  if (!last) return "no messages";
  const text = (last.content ?? "").replace(/\s+/g, " ").trim();
  return `last ${last.role} message "${clip(text, 80)}"`;
}
