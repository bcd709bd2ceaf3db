import { applyDelta, type Memory } from "@autograms/runtime";

/**
 * The memory after a snapshot and the deltas of the turns that followed it, in order. Each delta
 * names the checksum of the memory it applies to, so a gap or a wrong order is refused
 * (`bad_delta`) rather than rebuilt into some other memory.
 */
export function replayDeltas(snapshot: Memory, deltas: unknown[]): Memory {
  let memory = snapshot;
  for (const delta of deltas) memory = applyDelta(memory, delta);
  return memory;
}
