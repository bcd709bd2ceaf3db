/**
 * How long a run's events are kept: they are there for a client to resume the run's stream, and
 * once the run has ended and nobody resumed it for a while they are dead weight (most of a
 * thread's bytes: a turn's row keeps its trace, which is what the thread's history and a replay
 * read). The run's record stays, so a late resume is told the events are gone rather than that
 * the run never was. A failed run's events stay: nothing of it was committed, so they are all
 * there is of what it did and why it failed (the runs page's error and span tree read them), and
 * failures are few.
 */
import type { Sql } from "./driver.js";

/**
 * The events of at most `limit` runs that finished (their turn committed) before `endedBefore`, in
 * one statement: the runs are found from the events still kept (few: those of recent runs), not
 * from all the runs there ever were. The number of rows deleted; fewer than `limit` means none of
 * those runs is left.
 */
export function dropEndedRunEvents(sql: Sql, endedBefore: number, limit: number): Promise<number> {
  return sql.run(
    `DELETE FROM run_events WHERE run_id IN (
       SELECT e.run_id FROM run_events e JOIN runs r ON r.id = e.run_id
       WHERE r.status = 'finished' AND r.updated_at < ?
       GROUP BY e.run_id LIMIT ?)`,
    [endedBefore, limit],
  );
}

/** How many runs' events one statement drops: a sweep's statements stay short, whatever piled up. */
export const DROP_BATCH = 500;
