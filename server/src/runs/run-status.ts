/**
 * Whether a run is over, decided here alone, for a run of this process (LiveRun) as for one read
 * from the store. A run `abandoned` (its process is gone before it stored its end) is not over:
 * reading it here (settle-run.ts) writes the end it is owed, and it is over then.
 */
/** Nothing more will be added to the run's events: its end is numbered (stored, for a stored run). */
export function isOver(run: { status: string }): boolean {
  return run.status === "finished" || run.status === "failed";
}
