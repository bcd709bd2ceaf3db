/** A run's model settings (`RunOptions.modelSettings`): what each may be, checked in one place. */
import type { ModelSettings } from "./types.js";

/** The widest temperature range the servers take (OpenAI's: 0 to 2). */
export const MAX_TEMPERATURE = 2;

const FIELDS: ReadonlySet<string> = new Set(["model", "temperature", "maxTokens"]);

/** What is wrong with `value` as model settings, naming the field; undefined when nothing is. */
export function settingsProblem(value: unknown): { field: string; message: string } | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { field: "", message: "must be an object ({ model?, temperature?, maxTokens? })" };
  const given = value as Record<string, unknown>;
  for (const key of Object.keys(given))
    if (!FIELDS.has(key)) return { field: key, message: "is not a model setting (model, temperature, maxTokens)" };
  const { model, temperature, maxTokens } = given;
  if (model !== undefined && (typeof model !== "string" || model.trim() === "" || model.length > 200))
    return { field: "model", message: "must be a model's name (1 to 200 characters)" };
  if (
    temperature !== undefined &&
    !(typeof temperature === "number" && temperature >= 0 && temperature <= MAX_TEMPERATURE)
  )
    return { field: "temperature", message: `must be a number from 0 to ${MAX_TEMPERATURE}` };
  if (maxTokens !== undefined && !(typeof maxTokens === "number" && Number.isSafeInteger(maxTokens) && maxTokens >= 1))
    return { field: "maxTokens", message: "must be a whole number, at least 1" };
  return undefined;
}

/** The settings of the first event of a stored turn that carries them: what its model calls used. */
export function settingsOfTrace(trace: readonly object[]): ModelSettings | undefined {
  for (const e of trace) {
    const { settings } = e as { settings?: ModelSettings };
    if (settings) return settings;
  }
  return undefined;
}

/** The settings in words, as a transcript shows them: "model gpt-4o, temperature 0.2, max tokens 300". */
export function settingsText(settings: ModelSettings): string {
  const parts: string[] = [];
  if (settings.model !== undefined) parts.push(`model ${settings.model}`);
  if (settings.temperature !== undefined) parts.push(`temperature ${settings.temperature}`);
  if (settings.maxTokens !== undefined) parts.push(`max tokens ${settings.maxTokens}`);
  return parts.join(", ");
}
