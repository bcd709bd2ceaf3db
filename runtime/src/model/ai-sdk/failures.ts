// What a provider's call throws, in words: the ModelError the runtime reports, and whether
// another attempt could pass. Errors are recognised by the AI SDK's markers rather than with
// `instanceof`, so that the runtime needs no copy of @ai-sdk/provider of its own at run time.
import { ModelError, statusText } from "../errors.js";
import { retryAfter } from "../retries.js";
import { AnswerInterrupted, StreamFailed } from "./answer.js";

/** The fields of the AI SDK's APICallError that matter here. */
interface ApiCallError extends Error {
  url: string;
  statusCode?: number;
  responseHeaders?: Record<string, string>;
  isRetryable: boolean;
}

const marked = (err: unknown, name: string) =>
  typeof err === "object" &&
  err !== null &&
  (err as Record<symbol, unknown>)[Symbol.for(`vercel.ai.error.${name}`)] === true;

const isApiCallError = (err: unknown): err is ApiCallError => marked(err, "AI_APICallError");

/** An attempt that took longer than `timeout`. */
export class AttemptTimeout extends Error {
  override name = "AttemptTimeout";
}

/** A stream that sent nothing for `idleTimeout`. */
export class StreamStalled extends Error {
  override name = "StreamStalled";
}

/** The caller's signal ended the call (the turn's deadline). */
export class CallAbandoned extends Error {
  override name = "CallAbandoned";
}

export function retryReason(err: unknown): string | null {
  if (err instanceof AttemptTimeout) return "no answer in time";
  if (err instanceof StreamStalled) return err.message;
  if (err instanceof AnswerInterrupted) return "the answer was cut short";
  if (isApiCallError(err) && err.isRetryable) {
    return err.statusCode !== undefined ? statusText(err.statusCode) : "the server cannot be reached";
  }
  return null;
}

export function serverWait(err: unknown): number | undefined {
  if (!isApiCallError(err) || !err.responseHeaders) return undefined;
  const headers = err.responseHeaders;
  return retryAfter((name) => headers[name]);
}

export const statusOf = (err: unknown) => (isApiCallError(err) ? err.statusCode : undefined);

export interface CallContext {
  node: string;
  attempts: number;
  /** "openai.chat claude-x" for messages. */
  model: string;
}

// The provider's message of a failed request may repeat the cause fetch gives (ECONNREFUSED ...).
function rootCause(err: Error): string {
  let e = err;
  while (e.cause instanceof Error) e = e.cause;
  return e.message;
}

export function toModelError(err: unknown, ctx: CallContext): ModelError {
  if (err instanceof ModelError) return err;
  const tries = ctx.attempts > 1 ? ` (${ctx.attempts} attempts)` : "";
  const withCause = { cause: err };
  if (err instanceof CallAbandoned)
    return new ModelError(
      ctx.node,
      "timeout",
      "the call was abandoned: its caller's deadline passed",
      undefined,
      withCause,
    );
  if (err instanceof AttemptTimeout || err instanceof StreamStalled)
    return new ModelError(ctx.node, "timeout", `${err.message}${tries}`, undefined, withCause);
  if (err instanceof AnswerInterrupted)
    return new ModelError(ctx.node, "connection", `${err.message}${tries}`, undefined, withCause);
  if (err instanceof StreamFailed)
    return new ModelError(
      ctx.node,
      "http",
      `the server reported an error: ${err.message || "(no message)"}`,
      undefined,
      withCause,
    );
  if (isApiCallError(err)) {
    if (err.statusCode === undefined) {
      const cause = err.cause instanceof Error ? rootCause(err.cause) : err.message;
      return new ModelError(ctx.node, "connection", `cannot reach ${err.url}: ${cause}${tries}`, undefined, withCause);
    }
    const said = err.message && err.message !== "Bad Request" ? `: ${err.message}` : "";
    return new ModelError(
      ctx.node,
      "http",
      `the server answered ${statusText(err.statusCode)}${said}${tries}`,
      err.statusCode,
      withCause,
    );
  }
  if (marked(err, "AI_LoadAPIKeyError") || marked(err, "AI_LoadSettingError")) {
    return new ModelError(ctx.node, "connection", `${ctx.model}: ${(err as Error).message}`, undefined, withCause);
  }
  return new ModelError(ctx.node, "malformed", err instanceof Error ? err.message : String(err), undefined, withCause);
}
