/** Tokens added up over model calls: a step's, a turn's, a thread's. */
import type { TokenUsage } from "./types.js";

/**
 * Adds `usage` into `total`. A count the model did not report stays absent rather than counted
 * as 0, so a total never claims more knowledge than its parts gave.
 */
export function addUsage(total: TokenUsage, usage: TokenUsage): TokenUsage {
  if (usage.inputTokens !== undefined) total.inputTokens = (total.inputTokens ?? 0) + usage.inputTokens;
  if (usage.outputTokens !== undefined) total.outputTokens = (total.outputTokens ?? 0) + usage.outputTokens;
  if (usage.model !== undefined) total.model = usage.model;
  return total;
}

/** Whether any count is known. */
export const hasUsage = (usage: TokenUsage): boolean =>
  usage.inputTokens !== undefined || usage.outputTokens !== undefined;
