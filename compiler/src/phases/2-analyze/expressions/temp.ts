import { shortHash } from "../../../hash.js";
import type { FunctionContext } from "../context.js";
import { TEMP_PREFIX } from "../../../compiler-variables.js";

/**
 * A variable for a value computed before its statement (a hoisted agent call, a placeholder
 * expression), named from the expression's own text so it does not change when other code does.
 */
export function tempName(ctx: FunctionContext, key: string): string {
  const base = TEMP_PREFIX + shortHash(key);
  const count = (ctx.temps.get(base) ?? 0) + 1;
  ctx.temps.set(base, count);
  return count === 1 ? base : `${base}_${count}`;
}
