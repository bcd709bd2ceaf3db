/**
 * Every refusal of the HTTP API is `{ error: { code, message, field? } }` with a 4xx or 5xx status:
 * `field` names the part of the request at fault (`messages[2].parts`, `turn`), so a client can
 * point at it. The codes are stable.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AgentError } from "@autograms/runtime";
import { StoreError } from "@autograms/store";

type ApiErrorCode =
  | "bad_json"
  | "bad_request"
  | "bad_thread_id"
  | "unauthorized"
  | "not_found"
  | "too_large"
  | "unknown_thread"
  /** No run of that id (GET /api/runs/:id/spans). */
  | "unknown_run"
  /** `GET /api/experiments/:id`: no stored experiment of the served agent by that id. */
  | "unknown_experiment"
  | "thread_busy"
  | "thread_ended"
  | "unsupported"
  | "internal"
  /** The process is draining (SIGTERM): it takes no new turn; another process will. */
  | "shutting_down"
  /** The store cannot be reached or cannot write: nothing was committed; send it again later. */
  | "store_unavailable"
  /** A message id sent again with another text: the id names a message that said something else. */
  | "message_conflict"
  /** `Last-Event-ID` names a run whose process stopped before it stored any event: nothing of it can be sent. */
  | "run_lost"
  /** The `Host` header names no host this server answers to (DNS rebinding), or an `Origin` it does not allow. */
  | "forbidden_host"
  | "forbidden_origin"
  /** A request body not sent as JSON. */
  | "unsupported_media_type"
  /** The thread's model settings as the store keeps them are not settings (a row changed by hand or damaged). */
  | "bad_settings";

export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ApiErrorCode | string,
    message: string,
    readonly field?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string) => new HttpError(400, "bad_request", message, field);

const STORE_STATUS: Partial<Record<StoreError["code"], ContentfulStatusCode>> = {
  unknown_thread: 404,
  thread_busy: 409,
  lease_lost: 409,
  bad_request: 400,
  message_conflict: 409,
};

/**
 * An error's message as a client reads it: where the store is (its file's path, its host), which
 * the store's messages name for its own user (the CLI's), is the store to a client.
 */
export function clientMessage(message: string, where: string): string {
  return where === "" ? message : message.replaceAll(where, "the store");
}

/**
 * Any error as the API's answer: ours as they are, the store's and the runtime's by their codes,
 * anything else a 500 that says little. `where`: the store's location, never said to a client.
 */
export function toHttpError(err: unknown, where = ""): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof StoreError) {
    const message = clientMessage(err.message, where);
    // The store's `unavailable` is the server's store, not the resource asked for: a client retries.
    if (err.code === "unavailable")
      return new HttpError(503, "store_unavailable", message, undefined, { retryable: true });
    return new HttpError(STORE_STATUS[err.code] ?? 500, err.code, message);
  }
  if (err instanceof AgentError)
    return new HttpError(err.code === "conversation_over" ? 409 : 422, err.code, err.detail);
  return new HttpError(500, "internal", "the server failed to answer this request; see its log");
}

export function errorResponse(c: Context, err: unknown, where = ""): Response {
  const e = toHttpError(err, where);
  if (e.status >= 500 && !(err instanceof HttpError) && !(err instanceof StoreError)) console.error(err);
  const { code, message, field, extra } = e;
  return c.json({ error: { code, message, ...(field === undefined ? {} : { field }), ...extra } }, e.status);
}
