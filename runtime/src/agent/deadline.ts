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
  /** Set once the turn has ended (read by every step: cheaper than the signal's `aborted`). */
  private ended: DeadlinePassed | null = null;
  /** The rejections of the races under way, called when the turn ends. */
  private readonly racing = new Set<(reason: DeadlinePassed) => void>();
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly unlisten: () => void;

  constructor(
    readonly ms: number | undefined,
    outer: AbortSignal | undefined,
  ) {
    this.signal = this.controller.signal;
    this.endsAt = ms === undefined ? Infinity : Date.now() + ms;
    this.timer = ms === undefined ? undefined : setTimeout(() => this.end("deadline"), ms);
    const onOuter = () => this.end("cancelled");
    if (outer?.aborted) onOuter();
    outer?.addEventListener("abort", onOuter, { once: true });
    this.unlisten = () => outer?.removeEventListener("abort", onOuter);
  }

  /**
   * `work`, unless the deadline passes first. A race is remembered only until its work settles
   * (`Promise.race` against one promise that never settles would keep a reaction on that promise
   * for every wait of the run, and a listener on the signal costs more than a set's entry).
   */
  race<T>(work: Promise<T>): Promise<T> {
    const ended = this.ended;
    if (ended !== null) {
      work.catch(() => undefined); // lost the race: its failure no longer matters
      return Promise.reject(ended);
    }
    return new Promise<T>((resolve, reject) => {
      this.racing.add(reject);
      work.then(
        (value) => {
          this.racing.delete(reject);
          resolve(value);
        },
        (error: unknown) => {
          this.racing.delete(reject);
          reject(error);
        },
      );
    });
  }

  /**
   * Throws once the turn has ended. With a time limit the clock is read (a busy loop runs no
   * timers); a cancellation alone is seen when its signal has fired, between waits.
   */
  check(): void {
    if (this.ended === null) {
      if (this.endsAt === Infinity || Date.now() < this.endsAt) return;
      this.end("deadline");
    }
    throw this.ended;
  }

  /** Whether `err` is this deadline's own, as `race` and `check` throw it. */
  owns(err: unknown): err is DeadlinePassed {
    return err instanceof DeadlinePassed && err === this.ended;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.unlisten();
  }

  private end(why: DeadlinePassed["why"]): void {
    if (this.ended !== null) return;
    const ended = new DeadlinePassed(why, this.ms);
    this.ended = ended;
    this.controller.abort(ended);
    for (const lose of this.racing) lose(ended);
    this.racing.clear();
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
