/**
 * What the tokens cost: a price table the user gives (`serve --prices FILE`, `createApp`'s
 * `prices`), model name -> price per million input and output tokens, in whatever currency the
 * table is in. A cost is absent, never guessed, where the table has no price for the model or the
 * model did not report both counts.
 */
import type { TokenUsage } from "@autograms/runtime";

export interface Price {
  /** Per million input (prompt) tokens. */
  input: number;
  /** Per million output (completion) tokens. */
  output: number;
}

export type Prices = Readonly<Record<string, Price>>;

const isPrice = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0;

/**
 * `value` as a price table, or a TypeError that names `where` (a file, an option) and the model
 * whose entry is wrong, in the words `serve` shows.
 */
export function checkPrices(value: unknown, where: string): Prices {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new TypeError(`${where}: a price table is an object of model names, each { "input": n, "output": n }`);
  for (const [model, price] of Object.entries(value)) {
    const p = price as Partial<Record<string, unknown>> | null;
    if (typeof p !== "object" || p === null || Array.isArray(p) || !isPrice(p.input) || !isPrice(p.output))
      throw new TypeError(
        `${where}: model '${model}': a price is { "input": n, "output": n }, each a number of at least 0 per million tokens`,
      );
    const extra = Object.keys(p).find((k) => k !== "input" && k !== "output");
    if (extra !== undefined)
      throw new TypeError(`${where}: model '${model}': unknown field '${extra}' (a price has "input" and "output")`);
  }
  return value as Prices;
}

/** What `usage` cost, or undefined when the table cannot tell. */
export function costOf(usage: TokenUsage, prices: Prices | undefined): number | undefined {
  const price = usage.model === undefined ? undefined : prices?.[usage.model];
  if (!price || usage.inputTokens === undefined || usage.outputTokens === undefined) return undefined;
  return roundCost((usage.inputTokens * price.input + usage.outputTokens * price.output) / 1e6);
}

/** Sums of costs without the binary fractions' noise (0.1 + 0.2): 12 decimal places are plenty. */
export const roundCost = (cost: number) => Math.round(cost * 1e12) / 1e12;
