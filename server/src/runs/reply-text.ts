/** The text of a turn's reply in a run's events: where it was given, and what of it was sent. */
import { replyStep, type StoredTraceEvent, type TraceEvent } from "@autograms/runtime";
import type { NumberedRunEvent, RunEvent } from "./run-events.js";

/** The node whose output was the turn's reply: the last step that gave one ("" if none did). */
export function replyNode(trace: readonly (TraceEvent | StoredTraceEvent)[]): string {
  return replyStep(trace)?.node ?? "";
}

/**
 * The events that make what was sent of a reply (`sent`) add up to the whole `reply` at `node`:
 * the rest of it, or a reset and all of it when what was sent is not its beginning.
 */
export function restOfReply(node: string, sent: string, reply: string | null): RunEvent[] {
  if (reply === null || sent === reply) return [];
  if (reply.startsWith(sent)) return [{ type: "text-delta", node, delta: reply.slice(sent.length) }];
  return [
    { type: "text-reset", node },
    { type: "text-delta", node, delta: reply },
  ];
}

/**
 * What a run's stored events have sent of the reply at `node` for its last turn: the deltas since
 * the turn's user message (in a run that opened a thread, the opening's reply comes before it)
 * and since the node's last reset.
 */
export function sentOfReply(events: readonly NumberedRunEvent[], node: string): string {
  let sent = "";
  for (const { event } of events) {
    if ((event.type === "step" && event.event.kind === "user") || (event.type === "text-reset" && event.node === node))
      sent = "";
    else if (event.type === "text-delta" && event.node === node) sent += event.delta;
  }
  return sent;
}
