/**
 * A run executing in this process: its events in memory, in order, for the clients of this process
 * (they see each event at once), and written to the store in batches for everyone else (a client
 * of another process, or one that comes back after this process died). Text deltas arrive many a
 * second; a batch a `flushMs` keeps that to a few writes per run, and the run's last events are
 * written at once, in the batch that ends it. The run's record was written as it took its thread
 * (`AcquireOptions.runId`), and the events not yet written when its turn is committed go with the
 * commit (`commitTurn`), so a run shorter than `flushMs` costs the store one write after the take:
 * its turn, its events and its end.
 */
import type { RunWrite, Store } from "@autograms/store";
import { eventBatchesAsTheyCome } from "./events-as-they-come.js";
import { isOver, isRunEnd, type NumberedRunEvent, type RunEvent } from "./run-events.js";
import { ComputeSteps } from "./bounded-steps.js";
import { withJson } from "./run-event-json.js";

const BATCH_EVENTS = 500;

export class LiveRun {
  readonly events: NumberedRunEvent[] = [];
  private pending: NumberedRunEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<() => void>();
  /** A wake of the readers is queued (publish). */
  private waking = false;
  /** The store refused a batch: another process ended the run (it thought this one dead). */
  private disowned = false;
  /** Resolves once the last event is stored. */
  readonly stored: Promise<void>;
  private markStored!: () => void;
  /** Its turns' compute steps, counted where they are played: its end says how many were not sent. */
  readonly steps = new ComputeSteps();

  constructor(
    readonly id: string,
    readonly threadId: string,
    /** The lease the run holds its thread by (what of it the run reads). */
    private readonly lease: { readonly messageId: string | null },
    private readonly store: Store,
    private readonly flushMs: number,
    /** Told each event as it is numbered (the process's metrics). */
    private readonly onEvent?: (event: RunEvent) => void,
  ) {
    this.stored = new Promise((r) => (this.markStored = r));
  }

  /** The user's message the run answers (null: the opening alone). */
  get user(): string | null {
    const start = this.events[0]?.event;
    return start?.type === "run-start" ? start.user : null;
  }

  /** The message the run answers (null: the opening alone). */
  get messageId(): string | null {
    return this.lease.messageId;
  }

  /** Where the run stands, as a stored run's status says it: `running` until its end is numbered. */
  get status(): "running" | "finished" | "failed" {
    const last = this.events.at(-1)?.event;
    if (!last || !isRunEnd(last)) return "running";
    return last.type === "run-finish" ? "finished" : "failed";
  }

  push(event: RunEvent): void {
    const numbered = this.numbered(event);
    if (!numbered) return;
    this.publish(numbered);
    this.pending.push(numbered);
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

  /** The event with its number, after those published; null when it is not to be kept. */
  private numbered(event: RunEvent, after = this.events.length): NumberedRunEvent | null {
    if (isOver(this)) return null;
    const { omitted } = this.steps;
    if (isRunEnd(event) && omitted > 0) event = { ...event, omittedSteps: omitted };
    return { seq: after + 1, event };
  }

  /**
   * Shows the event to this process's clients. Its readers are woken once for the events pushed
   * together (a worker's batch of steps), once the code pushing them is done: a reader reads all
   * that is new when it wakes, and a wake per event cost each of a turn's thousands of steps a
   * copy of the readers and a call to each.
   */
  private publish(numbered: NumberedRunEvent): void {
    this.events.push(numbered);
    this.onEvent?.(numbered.event);
    if (this.waking || this.listeners.size === 0) return;
    this.waking = true;
    queueMicrotask(() => {
      this.waking = false;
      for (const listener of [...this.listeners]) listener();
    });
  }

  /**
   * Commits the run's turn with `commit`, given the run's events not stored yet and `after` (what
   * the run says once the turn is committed, its end if `end`) to write in the same transaction:
   * a turn costs the store one write with its events. `after` is shown to the clients once the
   * commit has succeeded; a commit that fails shows none of it, and the events before it are
   * written with the run's end, as the caller then pushes it.
   */
  commitTurn<T>(
    after: readonly RunEvent[],
    end: "finished" | undefined,
    commit: (run: RunWrite | undefined) => Promise<T>,
  ): Promise<T> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const numbered: NumberedRunEvent[] = [];
    for (const event of after) {
      const n = this.numbered(event, this.events.length + numbered.length);
      if (n) numbered.push(n);
    }
    // The commit takes a batch's worth at most: what came before it is written first, in batches.
    const earlier = this.pending.length - BATCH_EVENTS;
    if (earlier > 0) {
      const last = this.pending.splice(earlier);
      this.flush();
      this.pending = last;
    }
    const pending = this.pending;
    this.pending = [];
    const committed = this.writing.then(async () => {
      const write: RunWrite | undefined = this.disowned
        ? undefined
        : {
            runId: this.id,
            events: withJson([...pending, ...numbered]),
            ...(end && { end }),
          };
      try {
        const result = await commit(write);
        for (const n of numbered) this.publish(n);
        if (end) void this.writing.then(this.markStored);
        return result;
      } catch (err) {
        this.pending = [...pending, ...this.pending];
        throw err;
      }
    });
    this.writing = committed.then(
      () => {},
      () => {},
    );
    return committed;
  }

  /**
   * Writes what is pending, after the batches before it (one write at a time, in order), in
   * transactions of at most BATCH_EVENTS events: a run that makes thousands of events a second
   * holds the store (on SQLite, the process's thread) for short stretches only.
   */
  private flush(end?: "finished" | "failed"): void {
    const pending = this.pending;
    this.pending = [];
    for (let i = 0; i === 0 || i < pending.length; i += BATCH_EVENTS) {
      const batch = pending.slice(i, i + BATCH_EVENTS);
      const last = i + BATCH_EVENTS >= pending.length;
      this.writing = this.writing.then(async () => {
        if (this.disowned) return;
        try {
          if (!(await this.store.appendRunEvents(this.id, withJson(batch), last ? end : undefined)))
            this.disowned = true;
        } catch (err) {
          this.failed(err);
        }
      });
    }
  }

  // The clients of this process still get every event; the others will find the run abandoned
  // once its lease lapses (or no run at all), and are told so.
  private failed(err: unknown): void {
    this.disowned = true;
    console.error(
      `autograms serve: could not store the events of run ${this.id}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }

  /** The events after `afterSeq`, as they come (in batches), until the run ends or `signal` aborts. */
  follow(afterSeq: number, signal: AbortSignal): AsyncGenerator<NumberedRunEvent[]> {
    return eventBatchesAsTheyCome(
      {
        subscribe: (wake) => {
          this.listeners.add(wake);
          return () => this.listeners.delete(wake);
        },
        read: (after) => this.events.slice(after),
        idle: () => (isOver(this) ? "end" : "wait"),
      },
      afterSeq,
      signal,
    );
  }
}
