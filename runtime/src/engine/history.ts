/**
 * The conversation a scope sees: the turn lists of its visible frames, oldest first, read where
 * they are. Prompts read it from the newest turn back and stop at their budget, so the cost of a
 * prompt follows the budget, not the length of the conversation.
 */
import type { Turn } from "../memory/types.js";

export type History = readonly (readonly Turn[])[];

export function* newestFirst(history: History): Generator<Turn> {
  for (let i = history.length - 1; i >= 0; i--) {
    const list = history[i]!;
    for (let j = list.length - 1; j >= 0; j--) yield list[j]!;
  }
}

/** The last `k` turns, oldest first. */
export function lastTurns(history: History, k: number): Turn[] {
  const out: Turn[] = [];
  if (k <= 0) return out;
  for (const turn of newestFirst(history)) {
    out.push(turn);
    if (out.length === k) break;
  }
  return out.reverse();
}

export function turnCount(history: History): number {
  let n = 0;
  for (const list of history) n += list.length;
  return n;
}

export function allTurns(history: History): Turn[] {
  return history.length === 1 ? history[0]!.slice() : history.flat();
}
