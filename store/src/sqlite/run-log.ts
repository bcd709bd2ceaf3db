/**
 * A run's batch of events on SQLite: statements in one transaction (a statement is no round trip
 * in the process), alone or within the transaction that commits the run's turn.
 */
import type { Sql } from "../sql/driver.js";
import { type Batch, BATCH_ROW, batchText, type BatchStatus, RunLog } from "../sql/run-log.js";
import type { NewRun, RunEventRecord } from "../types.js";

export class SqliteRunLog extends RunLog {
  protected write({ runId, from, events, end, begin }: Batch): Promise<boolean> {
    return this.db.transaction((tx) => this.writeWithin(tx, runId, from, events, end, begin), { durable: false });
  }

  /**
   * Writes a batch within the transaction `sql` (a turn's commit writes its run's events with it).
   * `status`: the run's end, or `committed`; `turn`: the run goes on with that turn.
   */
  async writeWithin(
    sql: Sql,
    runId: string,
    from: number | null,
    events: readonly RunEventRecord[],
    status: BatchStatus | undefined,
    begin: NewRun | undefined,
    turn?: number,
  ): Promise<boolean> {
    // A new run's record counts its first batch itself: one statement less for a run whose
    // events are all in one batch (most turns).
    if (begin) await this.insert(sql, runId, begin, events.length, status, turn);
    // The numbering is taken, and the row locked, by one conditional update: the batch must go
    // on from the run's last event, and the run must not have ended.
    const update = this.takeNumbers(runId, events.length, from, status, turn);
    const taken = begin ? 1 : await sql.run(update.sql, update.params);
    if (taken === 0) return this.refused(sql, runId);
    if (events.length > 0) await sql.run(BATCH_ROW, [runId, from, from! + events.length - 1, batchText(events)]);
    await this.db.notify(sql, runId);
    return true;
  }
}
