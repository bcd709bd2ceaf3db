/**
 * A run's batch of events on Postgres: one statement, so one round trip (the transaction it would
 * take is five: BEGIN, the run's record, the events, NOTIFY, COMMIT), alone or as part of the
 * statement that commits the run's turn.
 */
import { first, num } from "../sql/driver.js";
import { type Batch, batchText, type BatchStatus, INSERT_RUN, RunLog } from "../sql/run-log.js";
import type { NewRun, RunEventRecord } from "../types.js";
import { RUN_CHANNEL } from "./driver.js";

export class PostgresRunLog extends RunLog {
  /** Alone, its commit does not wait for the disk (set_config is SET LOCAL within a statement). */
  protected async write({ runId, from, events, end, begin }: Batch): Promise<boolean> {
    const batch = this.batchStatement(runId, events, from, end, begin);
    const row = await first(
      this.db,
      `WITH ${batch.ctes} SELECT ${batch.taken} AS taken, set_config('synchronous_commit', 'off', true) AS lazy`,
      batch.params,
    );
    if (num(row?.taken) === 0) return this.refused(this.db, runId);
    return true;
  }

  /**
   * A batch as the common table expressions of a statement: the run's record (new, or its
   * numbering taken by one conditional update: on from the run's last event, the run not ended),
   * then the events (all in one parameter, a JSON array, so a batch of any size fits) and the
   * notification, only if the numbering was taken; `taken` counts it (0: refused). `status`: the
   * run's end, or `committed`; `turn`: the run goes on with that turn.
   */
  batchStatement(
    runId: string,
    events: readonly RunEventRecord[],
    from: number | null,
    status: BatchStatus | undefined,
    begin: NewRun | undefined,
    turn?: number,
  ): { ctes: string; params: unknown[]; taken: string } {
    const taken = begin
      ? { sql: `${INSERT_RUN} RETURNING id`, params: this.runRow(runId, begin, events.length, status, turn) }
      : ((u) => ({ sql: `${u.sql} RETURNING id`, params: u.params }))(
          this.takeNumbers(runId, events.length, from, status, turn),
        );
    const added =
      events.length === 0
        ? ""
        : `added AS (INSERT INTO run_events (run_id, seq, last_seq, event)
           SELECT taken.id, CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS TEXT) FROM taken),`;
    return {
      ctes: `taken AS (${taken.sql}),
         ${added}
         woken AS (SELECT pg_notify('${RUN_CHANNEL}', taken.id) FROM taken)`,
      params: [...taken.params, ...(events.length === 0 ? [] : [from, from! + events.length - 1, batchText(events)])],
      taken: "(SELECT COUNT(*) FROM taken) + 0 * (SELECT COUNT(*) FROM woken)",
    };
  }
}
