/**
 * A run's events after a number, as they come, from wherever the run is: from memory when it
 * executes in this process, else from the store, woken by the store's notifications (another
 * process executes it, or executed it and is gone: reading it then writes the end it is owed,
 * settle-run.ts). Reading writes nothing else.
 */
import type { Store } from "@autograms/store";
import { isOver, type NumberedRunEvent } from "./run-events.js";
import { eventBatchesAsTheyCome, oneByOne } from "./events-as-they-come.js";
import type { RunManager } from "./run-manager.js";
import { settledRun } from "./settle-run.js";

export const followRun = (...args: Parameters<typeof followRunBatches>) => oneByOne(followRunBatches(...args));

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
        // A run whose process died is given its end as it is read here: it is finished or failed then.
        const run = await settledRun(store, runId);
        if (!run || (isOver(run) && run.lastSeq <= after)) return "end";
        return isOver(run) ? "again" : "wait";
      },
    },
    afterSeq,
    signal,
  );
}
