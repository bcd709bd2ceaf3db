// Retries of a failed request, done here rather than by the openai client: the client obeys any
// Retry-After (a server asking for 100000 s held the process for a day), cannot say that it is
// waiting, and its waits ignore an abort. Here a wait over `maxRetryAfterMs` fails at once, every
// wait is announced (`onRetry`) and ends when the caller's signal aborts.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { BodyTimeout } from "./guarded-fetch.js";
import { isCutOff, statusText } from "./failures.js";

/** A retry about to wait: what failed, and how long until the next attempt. */
export interface RetryNotice {
  node: string;
  /** The attempt that failed, from 1. */
  attempt: number;
  /** Attempts allowed in all. */
  attempts: number;
  delayMs: number;
  /** What failed, in words ("429 Too Many Requests", "no answer in time", ...). */
  reason: string;
  /** The HTTP status, when the server answered one. */
  status?: number;
}

/** The last failure of a call whose every attempt failed. */
export class AttemptsFailed extends Error {
  constructor(readonly last: unknown, readonly attempts: number) {
    super(last instanceof Error ? last.message : String(last));
  }
}

const RETRIED_STATUS = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

/** Why a failed attempt is worth another, in words; null when another would fail the same way. */
export function retryReason(err: unknown): string | null {
  // A stream that stalled is worth another only while none of its text has been passed on: the caller says.
  if (err instanceof BodyTimeout) return err.message;
  if (err instanceof APIUserAbortError) return null;
  if (err instanceof APIConnectionTimeoutError) return "no answer in time";
  if (err instanceof APIConnectionError) return "the server cannot be reached";
  if (isCutOff(err)) return "the connection was lost";
  if (err instanceof APIError && err.status !== undefined) {
    const asked = err.headers?.get("x-should-retry");
    if (asked === "false") return null;
    if (asked === "true" || RETRIED_STATUS(err.status)) return statusText(err.status);
  }
  return null;
}

/** The wait the server asks for (`retry-after-ms`, or `retry-after` in seconds or as a date), in ms. */
export function serverWait(err: unknown): number | undefined {
  if (!(err instanceof APIError) || !err.headers) return undefined;
  const ms = Number.parseFloat(err.headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const header = err.headers.get("retry-after");
  if (header === null) return undefined;
  const seconds = Number.parseFloat(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The openai client's own backoff: 0.5 s doubling to 8 s, less up to a quarter at random. */
export function backoff(attempt: number): number {
  return Math.min(0.5 * 2 ** (attempt - 1), 8) * (1 - Math.random() * 0.25) * 1000;
}

/** Waits `ms`, or less when `signal` aborts (then it rejects with the client's abort error). */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new APIUserAbortError());
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Seconds for people: "20 s", "1.5 s", "27.8 h". */
export function duration(ms: number): string {
  const s = ms / 1000;
  if (s >= 7200) return `${Math.round(s / 360) / 10} h`;
  if (s >= 120) return `${Math.round(s / 6) / 10} min`;
  return `${s >= 10 ? Math.round(s) : Math.round(s * 10) / 10} s`;
}
