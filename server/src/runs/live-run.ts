/**
 * A run executing in this process: its events in memory, in order, for the clients of this process
 * (they see each event at once), and written to the store in batches for everyone else (a client
 * of another process, or one that comes back after this process died). Text deltas arrive many a
 * second; a batch a `flushMs` keeps that to a few writes per run, and the run's last events are
 * written at once, in the batch that ends it.
 */
import type { Store } from "@autograms/store";
import { isRunEnd, type NumberedRunEvent, type RunEvent } from "../run-events.js";

export class LiveRun {
  readonly events: NumberedRunEvent[] = [];
  private pending: NumberedRunEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<() => void>();
  /** The store refused a batch: another process ended the run (it thought this one dead). */
  private disowned = false;
  /** Resolves once the last event is stored. */
  readonly stored: Promise<void>;
  private markStored!: () => void;

  constructor(readonly id: string, readonly threadId: string, private readonly store: Store, private readonly flushMs: number) {
    this.stored = new Promise((r) => (this.markStored = r));
  }

  get ended(): boolean {
    const last = this.events.at(-1);
    return last !== undefined && isRunEnd(last.event);
  }

  push(event: RunEvent): void {
    if (this.ended) return;
    const numbered = { seq: this.events.length + 1, event };
    this.events.push(numbered);
    this.pending.push(numbered);
    for (const listener of [...this.listeners]) listener();
    if (isRunEnd(event)) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.flush(event.type === "run-finish" ? "finished" : "failed");
      void this.writing.then(this.markStored);
    } else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.flush();
      }, this.flushMs);
    }
  }

  /** Writes what is pending, after the batches before it (one write at a time, in order). */
  private flush(end?: "finished" | "failed"): void {
    const batch = this.pending;
    this.pending = [];
    this.writing = this.writing.then(async () => {
      if (this.disowned) return;
      try {
        if (!(await this.store.appendRunEvents(this.id, batch, end))) this.disowned = true;
      } catch (err) {
        // The clients of this process still get every event; the others will find the run
        // abandoned once its lease lapses, and are told so.
        this.disowned = true;
        console.error(`autograms serve: could not store the events of run ${this.id}: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
  }

  /** The events after `afterSeq`, as they come, until the run ends or `signal` aborts. */
  async *follow(afterSeq: number, signal: AbortSignal): AsyncGenerator<NumberedRunEvent> {
    let next = Math.max(0, afterSeq);
    let wake: (() => void) | null = null;
    const listener = () => wake?.();
    this.listeners.add(listener);
    const onAbort = () => wake?.();
    signal.addEventListener("abort", onAbort);
    try {
      for (;;) {
        while (next < this.events.length) yield this.events[next++]!;
        if (this.ended || signal.aborted) return;
        await new Promise<void>((r) => (wake = r));
        wake = null;
      }
    } finally {
      this.listeners.delete(listener);
      signal.removeEventListener("abort", onAbort);
    }
  }
}
