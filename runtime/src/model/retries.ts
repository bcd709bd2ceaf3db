// Retries of a failed model request, shared by the models that talk to servers. Each model says
// which failures pass and what the server asked (a RetryPolicy); the loop here waits, announces
// each wait (`onRetry`), refuses a wait longer than allowed, and ends a wait when the caller's
// signal aborts. Clients' own retries are off: they obey any Retry-After (a server asking for
// 100000 s held the process for a day), cannot say that they wait, and ignore an abort.
import { ModelError } from "./errors.js";

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

/** How long a model that talks to a server waits, and how it retries. */
export interface ServerCallOptions {
  /** Retries of a failed request (408, 409, 429, 5xx, timeouts, unreachable servers, stalled bodies); default 2. */
  maxRetries?: number;
  /**
   * Milliseconds per attempt: until the whole answer has arrived (for a stream, until it starts);
   * default 600000 (ten minutes).
   */
  timeout?: number;
  /** Milliseconds an answer's body or stream may send nothing before the attempt fails; default 60000, at most `timeout`. */
  idleTimeout?: number;
  /**
   * The longest wait before a retry that a server may ask for (Retry-After); a server that asks
   * for longer fails the call at once with a ModelError that says so. Default 60000 (60 s).
   */
  maxRetryAfterMs?: number;
  /** Called before each wait for a retry, e.g. to show "model server busy, retrying in 20 s". */
  onRetry?: (notice: RetryNotice) => void;
}

/** The last failure of a call whose every attempt failed. */
export class AttemptsFailed extends Error {
  constructor(
    readonly last: unknown,
    readonly attempts: number,
  ) {
    super(last instanceof Error ? last.message : String(last));
  }
}

export interface RetryPolicy {
  /** Attempts allowed in all (retries + 1). */
  attempts: number;
  maxRetryAfterMs: number;
  onRetry: ((notice: RetryNotice) => void) | undefined;
  /** Why a failed attempt is worth another, in words; null when another would fail the same way. */
  reason(err: unknown): string | null;
  /** The wait the server asks for, in ms. */
  serverWait(err: unknown): number | undefined;
  status(err: unknown): number | undefined;
  /** What a wait ended by the caller's signal throws (the client's own abort error). */
  aborted(): Error;
}

/**
 * Runs one attempt after another while they fail for passing reasons, waiting what the server
 * asks (up to maxRetryAfterMs) or backing off. The last failure comes out as AttemptsFailed.
 * Once `final()` holds (a stream's text has been passed on), a failure is not retried.
 */
export async function retrying<T>(
  policy: RetryPolicy,
  node: string,
  signal: AbortSignal | undefined,
  attempt: () => Promise<T>,
  final = () => false,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      const reason = final() ? null : policy.reason(err);
      if (reason === null) throw n > 1 ? new AttemptsFailed(err, n) : err;
      if (n >= policy.attempts) throw new AttemptsFailed(err, n);
      const asked = policy.serverWait(err);
      const status = policy.status(err);
      if (asked !== undefined && asked > policy.maxRetryAfterMs) {
        throw new ModelError(
          node,
          "http",
          `the server answered ${reason} and asked to be retried in ${duration(asked)}, ` +
            `longer than the ${duration(policy.maxRetryAfterMs)} allowed (maxRetryAfterMs)`,
          status,
          { cause: err },
        );
      }
      const delayMs = asked ?? backoff(n);
      policy.onRetry?.({
        node,
        attempt: n,
        attempts: policy.attempts,
        delayMs,
        reason,
        ...(status !== undefined && { status }),
      });
      await sleep(delayMs, signal, policy.aborted);
    }
  }
}

export const RETRIED_STATUS = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

/** The wait asked by `retry-after-ms`, or `retry-after` in seconds or as a date, in ms. */
export function retryAfter(header: (name: string) => string | null | undefined): number | undefined {
  const ms = Number.parseFloat(header("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = header("retry-after");
  if (value === null || value === undefined) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The openai client's own backoff: 0.5 s doubling to 8 s, less up to a quarter at random. */
export function backoff(attempt: number): number {
  return Math.min(0.5 * 2 ** (attempt - 1), 8) * (1 - Math.random() * 0.25) * 1000;
}

/** Waits `ms`, or less when `signal` aborts (then it rejects with `aborted()`). */
function sleep(ms: number, signal: AbortSignal | undefined, aborted: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted());
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
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
