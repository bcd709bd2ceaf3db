/**
 * The store on SQLite: its writes as statements in one transaction, where a statement is no round
 * trip (better-sqlite3 runs in the process).
 */
import { type Committing, headUpdate, leaseProblem, runEnded } from "../sql/committing.js";
import { first, num, type Sql } from "../sql/driver.js";
import { packJson } from "../sql/packed-json.js";
import { type Decided, FREE, SqlStore, type Take } from "../sql/sql-store.js";
import type { NewRun, RunEventRecord } from "../types.js";
import { type Batch, BATCH_ROW, batchText, type BatchStatus } from "../sql/run-log.js";

/**
 * The renewal of leases (their ids and tokens as two JSON arrays: one text for any number): the
 * tokens of those still held. A lease that lapsed stays lapsed, even if no one has taken the
 * thread yet: from that moment its run counts as abandoned everywhere (readers may have told its
 * clients it was lost).
 */
const RENEWAL = `UPDATE threads SET lease_expires = ?
   WHERE id IN (SELECT value FROM json_each(?)) AND lease_token IN (SELECT value FROM json_each(?)) AND lease_expires > ?
   RETURNING lease_token`;

export class SqliteStore extends SqlStore {
  protected async renewLeases(ids: string[], tokens: string[], expires: number, now: number): Promise<string[]> {
    const rows = await this.db.leases.all(RENEWAL, [expires, JSON.stringify(ids), JSON.stringify(tokens), now]);
    return rows.map((r) => String(r.lease_token));
  }

  /**
   * One transaction: the thread's row read once (with its live waiters and the message id's turn),
   * then what stands in the way decided (`decide`), or the free thread's lease written.
   */
  protected takeAtOnce(take: Take): Promise<Decided> {
    return this.onHeadRow(take, async (tx, row, now) => {
      const decided = await this.decide(tx, row, now, take);
      return decided === FREE ? this.takeRow(tx, row, num(row.version), take, now) : decided;
    });
  }

  /**
   * The lease checked on the row (why it no longer holds, said before anything is written), the
   * turn, its run's events, the thread's new head, and the snapshot the head's update says is due.
   */
  protected writeTurn(c: Committing): Promise<number> {
    const { lease, turn, columns, seq } = c;
    return this.db.transaction(async (tx) => {
      const now = this.now();
      const problem = leaseProblem(await this.row(tx, lease.threadId), lease, now);
      if (problem) throw problem;
      // The message id is unique in a thread: it leaves the turn replaced before it names this one.
      if (turn.replaces !== undefined)
        await tx.run("UPDATE turns SET status = 'replaced', message_id = NULL WHERE thread_id = ? AND seq = ?", [
          lease.threadId,
          turn.replaces,
        ]);
      await this.insertTurn(tx, lease.threadId, seq, {
        messageId: turn.messageId,
        user: turn.user,
        reply: turn.reply,
        status: "ok",
        delta: columns.delta,
        trace: columns.trace,
        startedAt: turn.startedAt,
        committedAt: now,
      });
      const { run } = turn;
      if (run && !(await this.batchWithin(tx, run.runId, c.from, run.events, c.runStatus, run.begin, c.runTurn)))
        throw runEnded(run, lease);
      if (c.leaseRun) await tx.run(c.leaseRun.sql, c.leaseRun.params(lease, now));
      const head = headUpdate(c, this.options, now);
      if (num((await first(tx, head.sql, head.params))?.snap_seq) === seq)
        await tx.run("INSERT INTO snapshots (thread_id, seq, memory) VALUES (?, ?, ?)", [
          lease.threadId,
          seq,
          packJson(turn.memory),
        ]);
      return now;
    });
  }

  protected writeBatch({ runId, from, events, end, begin }: Batch): Promise<boolean> {
    return this.db.transaction((tx) => this.batchWithin(tx, runId, from, events, end, begin), { durable: false });
  }

  /**
   * A run's batch of events, within the transaction `sql` (alone, or the one that commits the
   * run's turn; a statement is no round trip in the process).
   * `status`: the run's end, or `committed`; `turn`: the run goes on with that turn.
   */
  private async batchWithin(
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
    if (begin) await this.insertRun(sql, runId, begin, events.length, status, turn);
    // The numbering is taken, and the row locked, by one conditional update: the batch must go
    // on from the run's last event, and the run must not have ended.
    const update = this.takeNumbers(runId, events.length, from, status, turn);
    const taken = begin ? 1 : await sql.run(update.sql, update.params);
    if (taken === 0) return this.refusedBatch(sql, runId);
    if (events.length > 0) await sql.run(BATCH_ROW, [runId, from, from! + events.length - 1, batchText(events)]);
    await this.db.notify(sql, runId);
    return true;
  }
}
