/**
 * The store on SQLite: its writes as statements in one transaction, where a statement is no round
 * trip (better-sqlite3 runs in the process).
 */
import type { SqlDriver } from "../sql/driver.js";
import { type Committing, headUpdate, leaseProblem, runEnded } from "../sql/committing.js";
import { first, num } from "../sql/driver.js";
import { packJson } from "../sql/packed-json.js";
import { type Decided, FREE, SqlStore, type Take } from "../sql/sql-store.js";
import type { StoreOptions } from "../types.js";
import { SqliteRunLog } from "./run-log.js";

/**
 * The renewal of leases (their ids and tokens as two JSON arrays: one text for any number): the
 * tokens of those still held. A lease that lapsed stays lapsed, even if no one has taken the
 * thread yet: from that moment its run counts as abandoned everywhere (readers may have told its
 * clients it was lost).
 */
const RENEWAL = `UPDATE threads SET lease_expires = ?
   WHERE id IN (SELECT value FROM json_each(?)) AND lease_token IN (SELECT value FROM json_each(?)) AND lease_expires > ?
   RETURNING lease_token`;

export class SqliteStore extends SqlStore<SqliteRunLog> {
  constructor(db: SqlDriver, where: string, options: StoreOptions) {
    super(db, where, options, SqliteRunLog);
  }

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
      if (run && !(await this.runs.writeWithin(tx, run.runId, c.from, run.events, c.runStatus, run.begin, c.runTurn)))
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
}
