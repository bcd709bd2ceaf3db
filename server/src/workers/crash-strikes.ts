/**
 * Which threads' turns end the workers that play them. A worker that dies fails every turn it
 * was playing, so a thread whose turns crash it again and again would take the turns of other
 * threads with it each time. A thread that was playing when a worker died is a suspect: its next
 * turns are played on a worker of their own, where a crash is its alone; a turn played there that
 * ends clears it. A thread charged with `limit` crashes is refused (`thread_quarantined`) for
 * `quarantineMs`, or until the process restarts.
 */
import { shownValue } from "@autograms/runtime";

export interface QuarantineOptions {
  /** Crashes of a worker with the thread's turn on it before the thread is refused (default 3). */
  crashes: number;
  /** How long a quarantined thread is refused, in milliseconds (default 600,000: 10 minutes). */
  ms: number;
}

export const DEFAULT_QUARANTINE: QuarantineOptions = { crashes: 3, ms: 10 * 60_000 };

/** The options given, over the defaults; `option` names them in the error a bad one gets. */
export function quarantineOf(given: Partial<QuarantineOptions> | undefined, option: string): QuarantineOptions {
  const options = { ...DEFAULT_QUARANTINE, ...given };
  if (!(Number.isSafeInteger(options.crashes) && options.crashes >= 1))
    throw new RangeError(`${option}.crashes takes a whole number, at least 1, not ${shownValue(options.crashes)}`);
  if (!(typeof options.ms === "number" && options.ms > 0))
    throw new RangeError(`${option}.ms takes a number of milliseconds above 0, not ${shownValue(options.ms)}`);
  return options;
}

/** Threads remembered at most: the oldest charges go first (a flood of thread ids cannot grow it without end). */
const MAX_THREADS = 10_000;

export class ThreadQuarantinedError extends Error {
  readonly code = "thread_quarantined";
}

interface Charge {
  crashes: number;
  /** Why the last worker it was on ended. */
  why: string;
  /** Refused until then, once quarantined. */
  until?: number;
}

export class CrashStrikes {
  private readonly charges = new Map<string, Charge>();

  constructor(private readonly options: QuarantineOptions) {}

  /** A worker ended, `why`, while playing turns of these threads. */
  crashed(threadIds: Iterable<string>, why: string): void {
    for (const id of new Set(threadIds)) {
      const charge = this.charges.get(id) ?? { crashes: 0, why };
      this.charges.delete(id);
      charge.crashes++;
      charge.why = why;
      if (charge.crashes >= this.options.crashes) charge.until = Date.now() + this.options.ms;
      this.charges.set(id, charge);
    }
    for (const id of this.charges.keys()) {
      if (this.charges.size <= MAX_THREADS) break;
      this.charges.delete(id);
    }
  }

  /** Whether its turns are played apart from other threads'. */
  suspect(threadId: string): boolean {
    return this.charges.has(threadId);
  }

  /** A turn of the thread ended on a worker of its own, which it did not crash. */
  cleared(threadId: string): void {
    if (this.charges.get(threadId)?.until === undefined) this.charges.delete(threadId);
  }

  /** The error its next turn is refused with, if it is quarantined. */
  refusal(threadId: string): ThreadQuarantinedError | undefined {
    const charge = this.charges.get(threadId);
    if (charge?.until === undefined) return undefined;
    if (charge.until <= Date.now()) {
      // Served again, on a worker of its own: one more crash quarantines it again.
      charge.until = undefined;
      charge.crashes = this.options.crashes - 1;
      return undefined;
    }
    return new ThreadQuarantinedError(
      `the turns of thread '${threadId}' ended the worker playing them ${charge.crashes} times (the last: ${charge.why}); its messages are refused until ${new Date(charge.until).toISOString()} (${Math.round(this.options.ms / 1000)} s after the last crash) or until the server restarts. Fix what ends the worker (a tool or hook that exits its thread, or runs out of memory), then send the message again`,
    );
  }
}
