// Turning what the openai client throws into a ModelError that says what happened, in words.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { ModelError, statusText } from "../errors.js";
import { BodyTimeout } from "./guarded-fetch.js";

export interface CallContext {
  node: string;
  /** Attempts made, when more than one. */
  attempts: number;
  timeout: number;
  baseURL: string;
}

/** The server's own words, without the status the client puts in front. */
function serverMessage(err: APIError): string {
  const body = err.error as { message?: unknown } | undefined;
  if (typeof body?.message === "string") return body.message;
  return err.message.replace(/^\d{3}\s*/, "").replace(/^status code \(no body\)$/, "");
}

// fetch reports "fetch failed" and keeps the reason (ECONNREFUSED, ...) in its innermost cause.
function rootCause(err: Error): string {
  let e = err;
  while (e.cause instanceof Error) e = e.cause;
  return e.message;
}

/** undici's error when a body's connection closes before the body's end (a stream cut off). */
export const isCutOff = (err: unknown): err is TypeError => err instanceof TypeError && err.message === "terminated";

export function toModelError(err: unknown, ctx: CallContext): ModelError {
  if (err instanceof ModelError) return err;
  const tries = ctx.attempts > 1 ? ` (${ctx.attempts} attempts)` : "";
  if (err instanceof BodyTimeout)
    return new ModelError(ctx.node, "timeout", `${err.message}${tries}`, undefined, { cause: err });
  if (err instanceof APIUserAbortError)
    return new ModelError(ctx.node, "timeout", "the call was abandoned: its caller's deadline passed", undefined, {
      cause: err,
    });
  if (err instanceof APIConnectionTimeoutError) {
    return new ModelError(
      ctx.node,
      "timeout",
      `no answer from ${ctx.baseURL} within ${ctx.timeout} ms${tries}`,
      undefined,
      { cause: err },
    );
  }
  if (err instanceof APIConnectionError) {
    return new ModelError(ctx.node, "connection", `cannot reach ${ctx.baseURL}: ${rootCause(err)}${tries}`, undefined, {
      cause: err,
    });
  }
  if (isCutOff(err)) {
    return new ModelError(
      ctx.node,
      "connection",
      `the connection to ${ctx.baseURL} was lost while the answer arrived: ${rootCause(err)}${tries}`,
      undefined,
      { cause: err },
    );
  }
  if (err instanceof APIError) {
    const said = serverMessage(err);
    if (err.status === undefined) {
      return new ModelError(ctx.node, "http", `the server reported an error: ${said || "(no message)"}`, undefined, {
        cause: err,
      });
    }
    const detail = `the server answered ${statusText(err.status)}${said ? `: ${said}` : ""}${tries}`;
    return new ModelError(ctx.node, "http", detail, err.status, { cause: err });
  }
  if (err instanceof SyntaxError) {
    return new ModelError(ctx.node, "malformed", `the server's answer is not valid JSON: ${err.message}`, undefined, {
      cause: err,
    });
  }
  return new ModelError(ctx.node, "malformed", err instanceof Error ? err.message : String(err), undefined, {
    cause: err,
  });
}

const PARAMS = [
  "top_logprobs",
  "logprobs",
  "logit_bias",
  "response_format",
  "max_tokens",
  "temperature",
  "stream_options",
] as const;
export type RequestParam = (typeof PARAMS)[number];

/** The request parameter that a 400 / 422 answer refuses, when the server says which. */
export function rejectedParam(err: unknown): RequestParam | undefined {
  if (!(err instanceof APIError) || (err.status !== 400 && err.status !== 422)) return undefined;
  const param = PARAMS.find((p) => p === err.param);
  if (param) return param;
  const said = serverMessage(err);
  if (/json_schema/.test(said)) return "response_format";
  return PARAMS.find((p) => said.includes(p));
}

/** Whether the server refused the request itself (as opposed to failing to answer it). */
export const isBadRequest = (err: unknown) => err instanceof APIError && (err.status === 400 || err.status === 422);
