/** Reading what a client sends: a JSON body checked against a schema, a thread id, a number. */
import type { Context } from "hono";
import type { z } from "zod";
import { badRequest, HttpError } from "./errors.js";

/** `messages[2].parts`: where in the body an issue is, as a client would write it. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, key) => (typeof key === "number" ? `${out}[${key}]` : out === "" ? String(key) : `${out}.${String(key)}`),
    "",
  );
}

export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  // Its Content-Type was checked with the request's origin (http/browser-guards.ts).
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    throw new HttpError(400, "bad_json", "the body is not valid JSON");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = fieldPath(issue.path);
    throw badRequest(`${field === "" ? "the body" : field}: ${issue.message}`, field === "" ? undefined : field);
  }
  return parsed.data;
}

/**
 * Thread ids are what a client names its conversation with (the AI SDK makes one per chat): up to
 * 128 letters, digits and `_ - . : @`, not `.` or `..`, so one is always a single, plain URL segment.
 */
export const THREAD_ID = /^(?!\.{1,2}$)[A-Za-z0-9_\-.:@]{1,128}$/;

export function threadIdOf(raw: unknown, field = "id"): string {
  if (typeof raw !== "string" || !THREAD_ID.test(raw)) {
    throw new HttpError(
      400,
      "bad_thread_id",
      `${field}: a thread id is 1 to 128 letters, digits and _ - . : @ (not . or ..)`,
      field,
    );
  }
  return raw;
}

export function integerParam(raw: string | undefined, field: string, fallback?: number): number {
  if (raw === undefined && fallback !== undefined) return fallback;
  if (raw === undefined || !/^\d{1,9}$/.test(raw))
    throw badRequest(`${field}: a whole number (0, 1, 2, ...) is expected`, field);
  return Number(raw);
}

/**
 * Text a store can keep: U+0000 is refused (Postgres text cannot hold it), naming the field, the
 * same whatever the store.
 */
export function keepableText<T extends string | null | undefined>(text: T, field: string): T {
  if (typeof text === "string" && text.includes("\u0000"))
    throw badRequest(`${field}: contains a NUL character (U+0000), which cannot be kept`, field);
  return text;
}

/**
 * A user's message as a turn, whichever protocol brought it: not blank (`blank` says what to send
 * instead), at most `maxChars` characters, and keepable; `field` names where it is.
 */
export function messageText(text: string, field: string, maxChars: number, blank: string): string {
  if (text.trim() === "") throw badRequest(`${field}: ${blank}`, field);
  if (longerThan(text, maxChars)) throw badRequest(`${field}: longer than ${maxChars} characters`, field);
  return keepableText(text, field);
}

/**
 * Whether `text` has more than `max` characters (Unicode code points, as the limit is documented:
 * an emoji is one, though two UTF-16 units). No copy: a text of at most `max` units is within it,
 * and a longer one is walked by its code points only until it is past `max`.
 */
function longerThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let chars = 0;
  for (const _ of text) if (++chars > max) return true;
  return false;
}

/**
 * A turn of thread `id` named by `field`: a whole number from `first` to the thread's last turn,
 * `last` (past the end is the client's error, naming the field, not the store's).
 */
export function turnParam(raw: string | undefined, field: string, id: string, first: number, last: number): number {
  const turn = integerParam(raw, field, last);
  if (turn < first || turn > last) throw badRequest(`${field}: thread ${id} has turns ${first} to ${last}`, field);
  return turn;
}
