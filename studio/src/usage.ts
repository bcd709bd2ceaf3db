/** Tokens and their cost as the API gives them (docs/serving.md, "Tokens and cost"), in words. */

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  /** In the server's price table's currency; absent where it cannot be told. */
  cost?: number;
  model?: string;
}

const count = (n: number | undefined) => (n === undefined ? "?" : n.toLocaleString("en-US"));

/** A cost to three significant digits, never in exponent form (0.0000123, not 1.23e-5). */
export function money(cost: number): string {
  if (cost === 0) return "0";
  const digits = Math.max(2, 2 - Math.floor(Math.log10(Math.abs(cost))));
  return cost
    .toFixed(Math.min(digits, 12))
    .replace(/(\.\d*?)0+$/, "$1")
    .replace(/\.$/, "");
}

/** "1,234 in · 56 out tokens · cost 0.0012", or "" when there is no usage. */
export function usageText(usage: Usage | undefined): string {
  if (!usage || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return "";
  const tokens = `${count(usage.inputTokens)} in \u00b7 ${count(usage.outputTokens)} out tokens`;
  return usage.cost === undefined ? tokens : `${tokens} \u00b7 cost ${money(usage.cost)}`;
}
