/**
 * What a run's stored status means to its readers, decided here alone. A run `abandoned` (its
 * process is gone before it stored its end) is not over: reading it by id (`Store.run`) writes the
 * end it is owed, so a reader following it gets that end; but its message waits for no reply.
 */
import type { RunRecord } from "@autograms/store";

/** Nothing more will be added to the run's events: its end is stored. */
export function isOver(run: Pick<RunRecord, "status">): boolean {
  return run.status === "finished" || run.status === "failed";
}

/** The run is still answering its message: not over, and its process alive. */
export function isAnswering(run: Pick<RunRecord, "status">): boolean {
  return !isOver(run) && run.status !== "abandoned";
}
