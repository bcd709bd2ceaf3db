/**
 * A turn's deadline (`deadlineMs`) or its caller's cancellation (`signal`). The signal goes with
 * every model call, so an HTTP request is abandoned; every wait of the loop (a model call with its
 * retries, a tool) is also raced against it, so a model or tool that ignores the signal cannot hold
 * the turn either; and the steps between waits look at the clock, which a timer cannot do while
 * they run.
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly endsAt: number;
  private readonly expired: Promise<never>;
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly unlisten: () => void;

  constructor(
    readonly ms: number | undefined,
    outer: AbortSignal | undefined,
  ) {
    this.signal = this.controller.signal;
    this.endsAt = ms === undefined ? Infinity : Date.now() + ms;
    this.expired = new Promise<never>((_, reject) =>
      this.signal.addEventListener("abort", () => reject(this.signal.reason), { once: true }),
    );
    this.expired.catch(() => undefined);
    this.timer = ms === undefined ? undefined : setTimeout(() => this.end("deadline"), ms);
    const onOuter = () => this.end("cancelled");
    if (outer?.aborted) onOuter();
    outer?.addEventListener("abort", onOuter, { once: true });
    this.unlisten = () => outer?.removeEventListener("abort", onOuter);
  }

  /** `work`, unless the deadline passes first. */
  race<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined); // lost the race: its failure no longer matters
    return Promise.race([work, this.expired]);
  }

  /** Throws once the deadline has passed (the clock is read: a busy loop runs no timers). */
  check(): void {
    if (!this.signal.aborted && Date.now() >= this.endsAt) this.end("deadline");
    if (this.signal.aborted) throw this.signal.reason;
  }

  /** Whether `err` is this deadline's own, as `race` and `check` throw it. */
  owns(err: unknown): err is DeadlinePassed {
    return err instanceof DeadlinePassed && this.signal.aborted && err === this.signal.reason;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.unlisten();
  }

  private end(why: DeadlinePassed["why"]): void {
    if (!this.signal.aborted) this.controller.abort(new DeadlinePassed(why, this.ms));
  }
}

export class DeadlinePassed extends Error {
  constructor(
    readonly why: "deadline" | "cancelled",
    readonly ms: number | undefined,
  ) {
    super(
      why === "deadline"
        ? `the turn did not finish within its deadline of ${ms} ms (deadlineMs)`
        : "the turn was cancelled (its signal aborted)",
    );
  }
}
