import { replyOf, type TraceEvent } from "@autograms/runtime";
import type { StoredTraceEvent } from "@autograms/store";

/** The node whose output was the turn's reply: the last step that gave one ("" if none did). */
export function replyNode(trace: readonly (TraceEvent | StoredTraceEvent)[]): string {
  for (let i = trace.length - 1; i >= 0; i--) if (replyOf(trace[i] as TraceEvent) !== undefined) return trace[i]!.node;
  return "";
}
