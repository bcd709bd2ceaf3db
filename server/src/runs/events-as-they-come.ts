/**
 * The one wait-for-events loop of a run's readers (a run of this process, read from memory, or
 * one read from the store): read what there is after the last event seen and yield it; when there
 * is nothing new, ask `idle` what that means (the run is over, read again, or wait until the
 * source wakes the reader), until the run's end or until `signal` aborts.
 */
import { isRunEnd, type NumberedRunEvent } from "./run-events.js";

interface EventSource {
  /** Calls `wake` whenever there may be new events; returns how to stop. */
  subscribe(wake: () => void): () => void;
  read(afterSeq: number): NumberedRunEvent[] | Promise<NumberedRunEvent[]>;
  /** Nothing new after `afterSeq`: whether the run is over, may have more at once, or is to be waited for. */
  idle(afterSeq: number): "end" | "again" | "wait" | Promise<"end" | "again" | "wait">;
}

/**
 * The events as they come, in the batches they are read in (up to the run's end, included): a
 * reader that turns each into frames takes a turn's thousands of steps a batch at a time, not
 * each through an async generator's step.
 */
export async function* eventBatchesAsTheyCome(
  source: EventSource,
  afterSeq: number,
  signal: AbortSignal,
): AsyncGenerator<NumberedRunEvent[]> {
  let after = Math.max(0, afterSeq);
  let woken = false;
  let wake: (() => void) | null = null;
  const unsubscribe = source.subscribe(() => {
    woken = true;
    wake?.();
  });
  const onAbort = () => wake?.();
  signal.addEventListener("abort", onAbort);
  try {
    for (;;) {
      woken = false;
      const events = await source.read(after);
      const end = events.findIndex((e) => isRunEnd(e.event));
      const batch = end < 0 ? events : events.slice(0, end + 1);
      if (batch.length > 0) {
        yield batch;
        if (end >= 0) return;
        after = batch.at(-1)!.seq;
      }
      if (signal.aborted) return;
      if (events.length === 0) {
        const next = await source.idle(after);
        if (next === "end") return;
        if (next === "again") continue;
      }
      if (!woken) await new Promise<void>((r) => (wake = r));
      wake = null;
    }
  } finally {
    unsubscribe();
    signal.removeEventListener("abort", onAbort);
  }
}

export async function* oneByOne<T>(batches: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const batch of batches) for (const item of batch) yield item;
}
