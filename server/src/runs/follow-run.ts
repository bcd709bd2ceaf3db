/**
 * A run's events after a number, as they come, from wherever the run is: from memory when it
 * executes in this process, else from the store, woken by the store's notifications (another
 * process executes it, or executed it and is gone: the store then gives it the end it is owed
 * when it is read, store/src/turns/settle-run.ts). Reading never writes here.
 */
import type { NumberedRunEvent, Store } from "@autograms/store";
import { eventBatchesAsTheyCome, oneByOne } from "./events-as-they-come.js";
import type { RunManager } from "./run-manager.js";
import { isOver } from "./run-status.js";

export function followRun(
  store: Store,
  runs: RunManager,
  runId: string,
  afterSeq: number,
  signal: AbortSignal,
): AsyncGenerator<NumberedRunEvent> {
  return oneByOne(followRunBatches(store, runs, runId, afterSeq, signal));
}

/** The same, in the batches they are read in. */
export function followRunBatches(
  store: Store,
  runs: RunManager,
  runId: string,
  afterSeq: number,
  signal: AbortSignal,
): AsyncGenerator<NumberedRunEvent[]> {
  const live = runs.liveRun(runId);
  if (live) return live.follow(afterSeq, signal);
  return eventBatchesAsTheyCome(
    {
      subscribe: (wake) => store.watchRun(runId, wake),
      read: async (after) => (await store.runEvents(runId, after)) as NumberedRunEvent[],
      async idle(after) {
        const run = await store.run(runId);
        // The store gives a run whose process died its end when it reads it: it is finished or failed then.
        if (!run || (isOver(run) && run.lastSeq <= after)) return "end";
        return isOver(run) ? "again" : "wait";
      },
    },
    afterSeq,
    signal,
  );
}
