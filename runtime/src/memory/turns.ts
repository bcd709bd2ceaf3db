/**
 * Turn lists grow by appending. Each list the runtime makes by appending remembers the list it
 * extends, so what a turn added (for deltas, and for sealing, which hashes only new turns) is
 * found without comparing whole histories.
 */
import type { Turn } from "./types.js";

const extended = new WeakMap<readonly Turn[], readonly Turn[]>();

/** `turns` followed by `more`, as a new list that remembers it extends `turns`. */
export function appendTurns(turns: readonly Turn[], more: readonly Turn[]): Turn[] {
  if (!more.length) return turns as Turn[];
  // Spread, not concat: concat takes a slow path on the frozen lists memory holds.
  const out = [...turns, ...more];
  extended.set(out, turns);
  return out;
}

/** The list `list` was made from by appending, if the runtime made it so. */
export function extendedBy(list: readonly Turn[]): readonly Turn[] | undefined {
  return extended.get(list);
}

/**
 * How `after` differs from `before`: how many of `before`'s turns it keeps, and what follows them.
 * Follows the append links when `after` was made from `before`; otherwise compares turn by turn.
 */
export function turnsAdded(before: readonly Turn[], after: readonly Turn[]): { keep: number; add: Turn[] } {
  if (!before.length) return { keep: 0, add: after.slice() };
  for (let list: readonly Turn[] | undefined = after; list && list.length >= before.length; list = extended.get(list)) {
    if (list === before) return { keep: before.length, add: after.slice(before.length) };
  }
  let keep = 0;
  while (keep < before.length && keep < after.length && before[keep] === after[keep]) keep++;
  return { keep, add: after.slice(keep) };
}
