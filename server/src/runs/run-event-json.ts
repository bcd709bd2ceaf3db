/**
 * A run's events as JSON text, made once: a step that knows its own JSON text (step-text.ts, made
 * where the turn was played) gives that text, not serialized again, so the bytes the store keeps
 * and the frames carry are those its maker gave.
 */
import type { NumberedRunEvent, RunEvent } from "./run-events.js";
import { knownJson } from "./step-text.js";

/** A run event as JSON text: its own text when it carries one, else JSON.stringify of it. */
export function runEventJson(event: unknown): string {
  return knownJson(event) ?? JSON.stringify(event);
}

/** Numbered events as the store is given them: each with its JSON text (RunEventRecord.json). */
export function withJson(events: readonly NumberedRunEvent[]): { seq: number; event: RunEvent; json: string }[] {
  return events.map(({ seq, event }) => ({ seq, event, json: runEventJson(event) }));
}
