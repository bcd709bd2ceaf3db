/**
 * A run's events as JSON text, made once: an event that knows its own JSON text (`KnownJson`, made
 * where the event was made: a step serialized as the turn was played) gives that text, not
 * serialized again, so the bytes the store keeps and the frames carry are those its maker gave.
 */
import type { NumberedRunEvent, RunEvent } from "./run-events.js";

/** A value that carries its own JSON text: exactly what JSON.stringify makes of it. */
export abstract class KnownJson {
  /** The value's JSON text (a method of the prototype: the value's own fields, JSON and clone are untouched). */
  protected abstract jsonText(): string;

  /** The value's JSON text when it carries one. */
  static textOf(value: unknown): string | undefined {
    return value instanceof KnownJson ? value.jsonText() : undefined;
  }
}

/** A run event as JSON text: its own text when it carries one, else JSON.stringify of it. */
export function runEventJson(event: unknown): string {
  return KnownJson.textOf(event) ?? JSON.stringify(event);
}

/** Numbered events as the store is given them: each with its JSON text (RunEventRecord.json). */
export function withJson(events: readonly NumberedRunEvent[]): { seq: number; event: RunEvent; json: string }[] {
  return events.map(({ seq, event }) => ({ seq, event, json: runEventJson(event) }));
}
