import type { Memory } from "@autograms/runtime";

/**
 * The memory after a snapshot and the deltas of the turns that followed it.
 *
 * TEMPORARY full-memory path: until the runtime exports `applyDelta`, `agent.reply()` gives no
 * delta, so every turn is committed with a snapshot of its whole memory and there is never a
 * delta to apply here.
 */
export function replayDeltas(snapshot: Memory, deltas: unknown[]): Memory {
  if (deltas.length > 0) throw new Error("this version of the store cannot apply memory deltas");
  return snapshot;
}
