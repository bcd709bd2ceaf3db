/**
 * A run's events as the JSON text the store writes. An event is any JSON value; one that knows its
 * own JSON text (`KnownJson`, made once where the event was made: a step serialized as the turn
 * was played) is written as that text, not serialized again, so the bytes stored are those its
 * maker gave.
 */

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

/** Run events as one JSON array (a batch's row in the store): JSON.stringify of the array, the events' own texts passed through. */
export function runEventsJson(events: readonly unknown[]): string {
  if (events.length === 0) return "[]";
  // As JSON.stringify writes an array's element that has no JSON (undefined): null.
  const parts = events.map((e) => (runEventJson(e) as string | undefined) ?? "null");
  // The brackets joined with the first and last parts, not around the joined text: `join` makes
  // one flat string, where "[" + text + "]" is a rope that the store's driver copies flat again
  // before encoding it (a turn's batches are hundreds of KiB).
  parts[0] = `[${parts[0]}`;
  parts[parts.length - 1] += "]";
  return parts.join(",");
}
