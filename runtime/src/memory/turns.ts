/**
 * Turn lists grow by appending. Each list the runtime makes by appending remembers the list it
 * extends, so what a turn added (for deltas, and for sealing, which hashes only new turns) is
 * found without comparing whole histories.
 *
 * The link is weak: a list held strongly by the list appended to it would keep every earlier list
 * of a conversation alive as long as its newest one (a turn list of each length: memory
 * quadratic in the conversation, 100 MB for a thread of 4,000 turns). The list a turn extends is
 * alive while the turn uses it (it is in the memory the turn started from), which is when the
 * link is followed; a link to a list since collected is simply not followed.
 */
import type { Turn } from "./types.js";

const extended = new WeakMap<readonly Turn[], WeakRef<readonly Turn[]>>();

/** `turns` followed by `more`, as a new list that remembers it extends `turns`. */
export function appendTurns(turns: readonly Turn[], more: readonly Turn[]): Turn[] {
  if (!more.length) return turns as Turn[];
  // Spread, not concat: concat takes a slow path on the frozen lists memory holds.
  const out = [...turns, ...more];
  extended.set(out, new WeakRef(turns));
  return out;
}

/** The list `list` was made from by appending, if the runtime made it so and it is still alive. */
export function extendedBy(list: readonly Turn[]): readonly Turn[] | undefined {
  return extended.get(list)?.deref();
}

/**
 * How `after` differs from `before`: how many of `before`'s turns it keeps, and what follows them.
 * Follows the append links when `after` was made from `before`; otherwise compares turn by turn.
 */
export function turnsAdded(before: readonly Turn[], after: readonly Turn[]): { keep: number; add: Turn[] } {
  if (!before.length) return { keep: 0, add: after.slice() };
  for (let list: readonly Turn[] | undefined = after; list && list.length >= before.length; list = extendedBy(list)) {
    if (list === before) return { keep: before.length, add: after.slice(before.length) };
  }
  let keep = 0;
  while (keep < before.length && keep < after.length && before[keep] === after[keep]) keep++;
  return { keep, add: after.slice(keep) };
}
