/**
 * The tokens and cost of a turn's or a thread's steps, for the HTTP API: each step's usage as its
 * trace event keeps it, and sums over steps.
 */
import { addUsage, hasUsage, type TokenUsage } from "@autograms/runtime";
import { costOf, roundCost, type Prices } from "./prices.js";

/** Tokens with their cost, where the price table has one. */
export type PricedUsage = TokenUsage & { cost?: number };

/** A step's usage with its cost. */
export function priced(usage: TokenUsage, prices: Prices | undefined): PricedUsage {
  const cost = costOf(usage, prices);
  return cost === undefined ? usage : { ...usage, cost };
}

/**
 * The sum of some steps' usage, or undefined when none reported any. The cost is there only when
 * every step that used tokens has one: a sum with an unpriced part left out would be wrong. The
 * model is left out: a total may span several.
 */
export function usageTotal(usages: Iterable<PricedUsage | undefined>, prices?: Prices): PricedUsage | undefined {
  const total: TokenUsage = {};
  let cost: number | undefined = 0;
  for (const usage of usages) {
    if (!usage || !hasUsage(usage)) continue;
    const { model: _model, ...tokens } = usage;
    addUsage(total, tokens);
    const part = usage.cost ?? costOf(usage, prices);
    cost = cost === undefined || part === undefined ? undefined : cost + part;
  }
  if (!hasUsage(total)) return undefined;
  return cost === undefined ? total : { ...total, cost: roundCost(cost) };
}

/** The usage recorded on trace events (stored or replayed), read as it is kept. */
export function usageOf(event: object): TokenUsage | undefined {
  const { usage } = event as { usage?: unknown };
  return typeof usage === "object" && usage !== null ? (usage as TokenUsage) : undefined;
}
