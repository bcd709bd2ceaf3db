/**
 * The store on Postgres, where each statement is a round trip: a turn's commit is one statement,
 * atomic as it is (no BEGIN and COMMIT around it), and a free thread is taken by one statement.
 */
import { type Committing, headUpdate, lapsed, leaseProblem, runEnded } from "../sql/committing.js";
import { first, num, optStr, type Row, type Sql } from "../sql/driver.js";
import { packJson } from "../sql/packed-json.js";
import { type Decided, SqlStore, type Take } from "../sql/sql-store.js";
import { LEASE_COLUMNS, LEASE_NAMES, leaseValues } from "../sql/rows.js";
import type { AcquireOptions, Lease, NewRun, RunEventRecord, TakenThread } from "../types.js";
import { type Batch, batchText, type BatchStatus, INSERT_RUN, insertTakenRun } from "../sql/run-log.js";
import { RUN_CHANNEL } from "./driver.js";

/**
 * The renewal of leases, where an UPDATE of many rows waits for the lock of each: a thread whose
 * commit is under way (its row locked until that statement ends) would hold up the renewal of all
 * the others. Locked rows are skipped, and their leases counted held if the row, as last
 * committed, still holds them unlapsed (they are renewed at the next tick, or committed). The ids
 * and tokens go as two Postgres arrays. A lease that lapsed stays lapsed, even if no one has taken
 * the thread yet: from that moment its run counts as abandoned everywhere.
 */
const RENEWAL = `WITH free AS (SELECT id FROM threads WHERE id = ANY(CAST(? AS TEXT[])) FOR UPDATE SKIP LOCKED),
     renewed AS (UPDATE threads SET lease_expires = CAST(? AS BIGINT) FROM free
       WHERE threads.id = free.id AND threads.lease_token = ANY(CAST(? AS TEXT[])) AND threads.lease_expires > CAST(? AS BIGINT)
       RETURNING threads.lease_token)
   SELECT lease_token FROM renewed
   UNION ALL
   SELECT lease_token FROM threads WHERE id = ANY(CAST(? AS TEXT[])) AND id NOT IN (SELECT id FROM free)
     AND lease_token = ANY(CAST(? AS TEXT[])) AND lease_expires > CAST(? AS BIGINT)`;

/** Postgres's SQLSTATE for a division by zero: what the commit's all-or-nothing guard raises. */
const DIVISION_BY_ZERO = "22012";

export class PostgresStore extends SqlStore {
  protected async renewLeases(ids: string[], tokens: string[], expires: number, now: number): Promise<string[]> {
    const rows = await this.db.leases.all(RENEWAL, [ids, expires, tokens, now, ids, tokens, now]);
    return rows.map((r) => String(r.lease_token));
  }

  /**
   * One statement, whose commit does not wait for the disk, takes a free thread with no one
   * waiting and no turn of the message yet; a thread not in the store yet is made with its lease
   * by one more. The memory is read on the same connection: a lease is kept (renewed) once this
   * returns. Only where anything stands in the way does a transaction decide (`decide`), and one
   * that finds the thread free since leaves it to this statement again (FREE).
   */
  protected async takeAtOnce(take: Take): Promise<Decided> {
    const { lease, user, messageId, options, forMessage } = take;
    const quick = await this.db.session(async (sql): Promise<TakenThread | null> => {
      const took = await this.takeFree(sql, lease, user, messageId, options);
      if (took === "absent") {
        // A new thread: made with its lease, unless another caller made it first.
        const made = options.create !== false && (await this.makeTaken(sql, lease, user, options.runId));
        return made ? { lease: made, memory: null, settings: null } : null;
      }
      return (
        took && {
          lease: took.lease,
          memory: forMessage ? await this.memoryOf(sql, lease.threadId, took.row, took.lease.version) : null,
          settings: forMessage ? optStr(took.row.settings) : null,
        }
      );
    });
    return quick ?? this.onHeadRow(take, (tx, row, now) => this.decide(tx, row, now, take));
  }

  /**
   * The statement reads the waiters and the message's turns as they were when it began: it takes
   * the thread only if the row it locked is the version it began with (its xmin), so that nothing
   * committed meanwhile (a turn, a place in the queue: each writes the row) escaped it. It names
   * the columns it reads, so that it is a prepared statement (parsed and planned once per
   * connection, not for every message). The run that takes it (`runId`) is recorded by the same
   * statement. Null when anything stands in the way.
   */
  private async takeFree(
    sql: Sql,
    lease: Lease,
    user: string | null,
    messageId: string | null,
    { agent, runId }: AcquireOptions,
  ): Promise<{ lease: Lease; row: Row } | "absent" | null> {
    const now = this.now();
    const run = runId === undefined ? null : insertTakenRun("taken, head", "head.version + 1", runId, lease, user, now);
    const row = await first(
      sql,
      `WITH seen AS (SELECT xmin::text AS x FROM threads WHERE id = ?),
         head AS (SELECT id, agent, version, lease_token, lease_owner, lease_expires, memory_checksum, settings, xmin::text AS x,
             (SELECT COUNT(*) FROM waiters WHERE waiters.thread_id = threads.id AND waiters.expires > ?) AS waiting,
             (SELECT COUNT(*) FROM turns WHERE turns.thread_id = threads.id AND turns.message_id = ?) AS made
           FROM threads WHERE id = ? FOR UPDATE),
         taken AS (UPDATE threads SET ${LEASE_COLUMNS}
           FROM head, seen
           WHERE threads.id = head.id AND head.x = seen.x AND (head.lease_token IS NULL OR head.lease_expires <= ?)
             AND head.waiting = 0 AND head.made = 0${agent === undefined ? "" : " AND (head.agent IS NULL OR head.agent = ?)"}
           RETURNING threads.id)${
             run
               ? `,
         run AS (${run.sql})`
               : ""
           }
       SELECT version, lease_token, lease_owner, memory_checksum, settings, (SELECT COUNT(*) FROM taken) AS took,
         set_config('synchronous_commit', 'off', true) AS lazy FROM head`,
      [
        lease.threadId,
        now,
        messageId,
        lease.threadId,
        ...leaseValues(lease, user, now),
        now,
        ...(agent === undefined ? [] : [agent]),
        ...(run ? run.params : []),
      ],
    );
    if (!row) return "absent";
    if (num(row.took) !== 1) return null;
    const taken = { ...lease, version: num(row.version) };
    // A token still there but out of date: its holder neither committed nor released (nor renewed).
    if (row.lease_token !== null && row.lease_token !== undefined) taken.lapsedOwner = String(row.lease_owner);
    return { lease: taken, row };
  }

  /**
   * A thread not in the store yet, made with the lease in its row (and the record of the run that
   * takes it, `runId`); null when another caller made it first.
   */
  private async makeTaken(sql: Sql, lease: Lease, user: string | null, runId?: string): Promise<Lease | null> {
    const now = this.now();
    const run = runId === undefined ? null : insertTakenRun("made", "1", runId, lease, user, now);
    const row = await first(
      sql,
      `WITH made AS (INSERT INTO threads (id, version, done, first_seq, snap_seq, created_at, updated_at, ${LEASE_NAMES})
         VALUES (?, 0, 0, 1, 0, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id)${
           run
             ? `,
         run AS (${run.sql})`
             : ""
         }
       SELECT (SELECT COUNT(*) FROM made) AS made, set_config('synchronous_commit', 'off', true) AS lazy`,
      [lease.threadId, now, now, ...leaseValues(lease, user, now), ...(run ? run.params : [])],
    );
    return num(row?.made) === 1 ? { ...lease, version: 0 } : null;
  }

  /**
   * The whole commit in one statement: the memory's snapshot goes with it where one is sure to be
   * due (a turn without a delta, a thread's first); where one falls due otherwise (every
   * `snapshotEvery` turns, or `snapshotBytes` of deltas) the statement without it writes nothing,
   * and it is sent again with it.
   */
  protected async writeTurn(c: Committing): Promise<number> {
    const sure = c.columns.delta === null || c.lease.version === 0;
    return (await this.commitStatement(c, sure)) ?? (await this.commitStatement(c, true))!;
  }

  /**
   * The thread's new head written only where the lease holds (the row locked by that update), and
   * from it the replaced turn, the turn, the snapshot, the run's events or its lease's run. The
   * time of the commit, or null where nothing was written because a snapshot is due and
   * `withSnapshot` is false.
   */
  private async commitStatement(c: Committing, withSnapshot: boolean): Promise<number | null> {
    const { lease, turn, columns, seq } = c;
    // The time read once a connection is free: a lease that lapsed while the statement waited
    // for one does not commit.
    return this.db.session(async (sql) => {
      const now = this.now();
      const head = headUpdate(c, this.options, now, !withSnapshot);
      const { run } = turn;
      const batch = run && this.batchStatement(run.runId, run.events, c.from, c.runStatus, run.begin, c.runTurn);
      const replaces = turn.replaces !== undefined;
      const ctes = [
        `head AS (${head.sql})`,
        // The message id is unique in a thread: the turn replaced gives it up before this one is
        // written (the turn's insert reads this first).
        replaces &&
          "replaced AS (UPDATE turns SET status = 'replaced', message_id = NULL WHERE thread_id = ? AND seq = CAST(? AS INTEGER) AND EXISTS (SELECT 1 FROM head) RETURNING seq)",
        `turn AS (INSERT INTO turns (thread_id, seq, message_id, user_text, reply, status, delta, trace, started_at, committed_at)
         SELECT ?, CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), 'ok', CAST(? AS BYTEA), CAST(? AS BYTEA), CAST(? AS BIGINT), CAST(? AS BIGINT)
         FROM head${replaces ? ", (SELECT COUNT(*) FROM replaced) AS replaced" : ""})`,
        withSnapshot &&
          "snap AS (INSERT INTO snapshots (thread_id, seq, memory) SELECT ?, CAST(? AS INTEGER), CAST(? AS BYTEA) FROM head WHERE head.snap_seq = CAST(? AS INTEGER))",
        c.leaseRun && `lease_run AS (${c.leaseRun.sql} AND EXISTS (SELECT 1 FROM head))`,
        batch?.ctes,
      ].filter((cte): cte is string => typeof cte === "string");
      const params = [
        ...head.params,
        ...(replaces ? [lease.threadId, turn.replaces] : []),
        lease.threadId,
        seq,
        turn.messageId,
        turn.user,
        turn.reply,
        columns.delta,
        columns.trace,
        turn.startedAt,
        now,
        ...(withSnapshot ? [lease.threadId, seq, packJson(turn.memory), seq] : []),
        ...(c.leaseRun ? c.leaseRun.params(lease, now) : []),
        ...(batch ? batch.params : []),
      ];
      // All or nothing: the statement fails (and so writes nothing) unless the head and the run's
      // events were both written.
      const written = await first(
        sql,
        `WITH ${ctes.join(",\n       ")}
       SELECT 1 / ((SELECT COUNT(*) FROM head) * (${batch ? batch.taken : "1"})) AS committed`,
        params,
      ).then(
        () => true,
        (err: unknown) => {
          if ((err as { code?: unknown } | null)?.code === DIVISION_BY_ZERO) return false;
          throw err;
        },
      );
      if (written) return now;
      // Nothing written: why, from the row and the run.
      const problem = leaseProblem(await this.row(sql, lease.threadId), lease, now);
      if (problem) throw problem;
      if (!withSnapshot) return null;
      if (run) {
        await this.refusedBatch(sql, run.runId);
        throw runEnded(run, lease);
      }
      throw lapsed(lease);
    });
  }

  /** Alone, its commit does not wait for the disk (set_config is SET LOCAL within a statement). */
  protected async writeBatch({ runId, from, events, end, begin }: Batch): Promise<boolean> {
    const batch = this.batchStatement(runId, events, from, end, begin);
    const row = await first(
      this.db,
      `WITH ${batch.ctes} SELECT ${batch.taken} AS taken, set_config('synchronous_commit', 'off', true) AS lazy`,
      batch.params,
    );
    if (num(row?.taken) === 0) return this.refusedBatch(this.db, runId);
    return true;
  }

  /**
   * A run's batch of events as the common table expressions of one statement, so one round trip
   * (the transaction it would take is five: BEGIN, the run's record, the events, NOTIFY, COMMIT),
   * alone or as part of the statement that commits the run's turn: the run's record (new, or its
   * numbering taken by one conditional update: on from the run's last event, the run not ended),
   * then the events (all in one parameter, a JSON array, so a batch of any size fits) and the
   * notification, only if the numbering was taken; `taken` counts it (0: refused). `status`: the
   * run's end, or `committed`; `turn`: the run goes on with that turn.
   */
  private batchStatement(
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
