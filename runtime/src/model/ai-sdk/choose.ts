// Multiple choice through a provider: the labels as the enum of a JSON answer where the provider
// offers structured output, then a validated reading of a text answer.
import { readChoiceAnswer, type ChoiceQuestion as Question } from "../choices.js";
import { clip } from "../../text/cut.js";
import type { Answer } from "./answer.js";
import type { CallOptions, Prompt } from "./spec.js";

export type Generate = (call: Omit<CallOptions, "abortSignal">) => Promise<Answer>;

/** A strategy picked an answer, or says why not; `unsupported` when the provider cannot do it at all. */
export type ChoiceOutcome = { index: number } | { failed: string; unsupported?: boolean };

export interface ChoiceQuestion extends Question {
  prompt: Prompt;
}

/** `{ "answer": <label> }` with the labels as an enum, through the provider's JSON response format. */
export async function chooseByJson(generate: Generate, q: ChoiceQuestion): Promise<ChoiceOutcome> {
  const answer = await generate({
    prompt: q.prompt,
    responseFormat: {
      type: "json",
      name: "choice",
      schema: {
        type: "object",
        properties: { answer: { type: "string", enum: [...q.labels] } },
        required: ["answer"],
        additionalProperties: false,
      },
    },
  });
  const unsupported = answer.warnings.some((w) => w.type === "unsupported" && w.feature === "responseFormat");
  // The label alone, or JSON: readChoiceAnswer takes `{"answer": "B"}` as it takes "B".
  const i = readChoiceAnswer(answer.text, q.choices);
  return i !== undefined
    ? { index: i }
    : {
        failed: `the answer ${JSON.stringify(clip(answer.text, 120))} names none of ${q.labels.join(", ")}`,
        unsupported,
      };
}

/** The last resort: a free-text answer, accepted only when it names one answer plainly. */
export async function chooseByText(generate: Generate, q: ChoiceQuestion): Promise<ChoiceOutcome> {
  const answer = await generate({ prompt: q.prompt });
  const i = readChoiceAnswer(answer.text, q.choices);
  return i === undefined
    ? { failed: `the answer ${JSON.stringify(clip(answer.text, 120))} names none of ${q.labels.join(", ")}` }
    : { index: i };
}
