import type { TraceEvent } from "./events.js";

/** A trace event as stored: a `TraceEvent` less the prompts it repeats. */
export type StoredTraceEvent = { kind: TraceEvent["kind"]; node: string } & Record<string, unknown>;

/**
 * A turn's trace events as they are kept (a store's turns, a run's stream): without the prompts sent to the model (a
 * generation's `messages`, a decision's `prompt`), which repeat the whole conversation each turn
 * and would make the bytes stored per turn grow with its length. Everything the model decided and
 * answered, and every variable each step wrote, stays.
 */
export function storedTrace(events: TraceEvent[]): StoredTraceEvent[] {
  return events.map(storedEvent);
}

/** One event as `storedTrace` keeps it: the event itself when it has no prompt to leave out (most steps). */
export function storedEvent(e: TraceEvent): StoredTraceEvent {
  const decisions = (e as { decisions?: unknown }).decisions;
  // The same fields, read the same way: only the declared type differs (the stored one is open).
  if (e.kind !== "generate" && !(Array.isArray(decisions) && decisions.length > 0))
    return e as unknown as StoredTraceEvent;
  const out: StoredTraceEvent = { ...e };
  if (out.kind === "generate") delete out.messages;
  if (Array.isArray(out.decisions))
    out.decisions = (out.decisions as { prompt?: string }[]).map(({ prompt: _prompt, ...d }) => d);
  return out;
}
