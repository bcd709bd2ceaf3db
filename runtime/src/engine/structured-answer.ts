/**
 * A thought's answer as data (its `schema` field): what the prompt asks for, how the answer is
 * read and checked, and what the model is told when an answer does not do.
 */
import type { ValidateFunction } from "ajv";
import { schemaErrors } from "@autograms/graph";
import type { JsonValue } from "@autograms/graph";
import type { ChatMessage, JsonSchema } from "../model/types.js";

/** Added to the instruction: a model without a structured-output feature learns the shape here. */
export function schemaRequest(instruction: string, schema: JsonSchema): string {
  return `${instruction}\n\nAnswer with JSON only, no other text, matching this JSON Schema:\n${JSON.stringify(schema)}`;
}

// Models often wrap JSON in a Markdown code fence even when asked not to.
const FENCED = /^```[a-zA-Z]*\s*\n?([\s\S]*?)\n?\s*```$/;

/** The answer's data, or why it is not data that matches. */
export function readStructuredAnswer(
  check: ValidateFunction,
  answer: string,
): { ok: true; data: JsonValue } | { ok: false; why: string } {
  const trimmed = answer.trim();
  const text = (FENCED.exec(trimmed)?.[1] ?? trimmed).trim();
  let data: JsonValue;
  try {
    data = JSON.parse(text) as JsonValue;
  } catch {
    return { ok: false, why: text ? "it is not JSON" : "it is empty" };
  }
  return check(data) ? { ok: true, data } : { ok: false, why: schemaErrors(check.errors) || "it does not match" };
}

/** The model's unusable answer and what was wrong with it, to ask again from. */
export function schemaFeedback(answer: string, why: string): ChatMessage[] {
  return [
    { role: "assistant", content: answer },
    {
      role: "user",
      content: `That answer does not match the JSON Schema (${why}). Answer again with JSON only, matching the schema.`,
    },
  ];
}
