import type { TraceEvent } from "@autograms/runtime";
import type { StoredTraceEvent } from "./types.js";

/**
 * A turn's trace events as the store keeps them: without the prompts sent to the model (a
 * generation's `messages`, a decision's `prompt`), which repeat the whole conversation each turn
 * and would make the bytes stored per turn grow with its length. Everything the model decided and
 * answered, and every variable each step wrote, stays.
 */
export function storedTrace(events: TraceEvent[]): StoredTraceEvent[] {
  return events.map((e) => {
    const out: StoredTraceEvent = { ...e };
    if (out.kind === "generate") delete out.messages;
    if (Array.isArray(out.decisions))
      out.decisions = (out.decisions as { prompt?: string }[]).map(({ prompt: _prompt, ...d }) => d);
    return out;
  });
}
