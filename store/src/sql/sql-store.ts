/**
 * The store's logic, written once over `SqlDriver` for SQLite and Postgres alike.
 *
 * A turn never holds a database transaction while the model thinks: `acquire` takes a lease on the
 * thread in one short transaction, the run happens outside, and `commit` appends the turn in a
 * second one that checks the lease token and the version (compare-and-swap). A process killed at
 * any point leaves either no trace of its turn or all of it, and its lease expires.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Memory } from "@autograms/runtime";
import { messageConflict, StoreError } from "../errors.js";
import { MemoryCache } from "../memory-cache.js";
import { replayDeltas } from "../memory-replay.js";
import type {
  AcquireOptions,
  Lease,
  LoadedThread,
  NewRun,
  NewTurn,
  PruneOptions,
  PruneResult,
  RunEventRecord,
  RunWrite,
  RunRecord,
  Store,
  StoreOptions,
  TakenThread,
  ThreadExport,
  ThreadInfo,
  TurnRecord,
  TurnStatus,
} from "../types.js";
import { first, num, optNum, optStr, type Row, type Sql, type SqlDriver } from "./driver.js";
import { migrate, SCHEMA_VERSION } from "./migrations.js";
import { whyUnwritable } from "./unwritable.js";
import { packJson, unpackJson } from "./packed-json.js";
import { busyMessage, isLive, THREAD_ROW, threadInfo, turnRecord } from "./rows.js";
import {
  checkAcquireOptions,
  checkListOptions,
  checkPruneOptions,
  checkTitle,
  describe,
  keepable,
  runKey,
  threadKey,
  turnNumber,
} from "../arguments.js";
import { settleRun } from "../turns/settle-run.js";
import { RunLog } from "./run-log.js";
import { committedRecord, turnColumns, type TurnColumns } from "./turn-columns.js";

/**
 * The renewal of leases (their ids and tokens as two JSON arrays: one text for any number): the
 * tokens of those still held. A lease that lapsed stays lapsed, even if no one has taken the
 * thread yet: from that moment its run counts as abandoned everywhere (readers may have told its
 * clients it was lost).
 */
const RENEWAL = `UPDATE threads SET lease_expires = ?
   WHERE id IN (SELECT value FROM json_each(?)) AND lease_token IN (SELECT value FROM json_each(?)) AND lease_expires > ?
   RETURNING lease_token`;

/**
 * The same on Postgres, where an UPDATE of many rows waits for the lock of each: a thread whose
 * commit is under way (its row locked until that transaction ends) would hold up the renewal of
 * all the others. Locked rows are skipped, and their leases counted held if the row, as last
 * committed, still holds them unlapsed (they are renewed at the next tick, or committed). The ids
 * and tokens go as two Postgres arrays.
 */
const RENEWAL_SKIPPING_LOCKED = `WITH free AS (SELECT id FROM threads WHERE id = ANY(CAST(? AS TEXT[])) FOR UPDATE SKIP LOCKED),
     renewed AS (UPDATE threads SET lease_expires = CAST(? AS BIGINT) FROM free
       WHERE threads.id = free.id AND threads.lease_token = ANY(CAST(? AS TEXT[])) AND threads.lease_expires > CAST(? AS BIGINT)
       RETURNING threads.lease_token)
   SELECT lease_token FROM renewed
   UNION ALL
   SELECT lease_token FROM threads WHERE id = ANY(CAST(? AS TEXT[])) AND id NOT IN (SELECT id FROM free)
     AND lease_token = ANY(CAST(? AS TEXT[])) AND lease_expires > CAST(? AS BIGINT)`;

/** The lease's columns, in the order of `leaseValues`. */
const LEASE_NAMES = "lease_token, lease_owner, lease_message, lease_user, lease_since, lease_expires";
/** The lease's columns as taking it writes them (`leaseValues`). */
const LEASE_COLUMNS = LEASE_NAMES.replaceAll(",", " = ?,") + " = ?";

const leaseValues = (lease: Lease, user: string | null, now: number) => [
  lease.token,
  lease.owner,
  lease.messageId,
  user,
  now,
  now + lease.ttlMs,
];

/** A message id's turn, found when the message came again. */
type MadeTurn = Extract<TakenThread, { made: TurnRecord }>;

const DEFAULTS: Store["options"] = {
  snapshotEvery: 50,
  snapshotBytes: 256 * 1024,
  leaseMs: 10_000,
  pollMs: 50,
  memoryCache: 100,
  memoryCacheMb: 128,
};

/** The longest title a thread may be given. */
const TITLE_MAX = 200;

/**
 * A thread's row as shown (ThreadInfo): with its first user message, its title when none was
 * given. Read only where a thread is shown; a turn's path reads the bare row.
 */
const THREAD_COLUMNS = `${THREAD_ROW}, (SELECT user_text FROM turns WHERE turns.thread_id = threads.id AND user_text IS NOT NULL ORDER BY seq LIMIT 1) AS first_user`;

export class SqlStore implements Store {
  readonly options: Store["options"];
  private readonly now: () => number;
  /** Postgres locks the row a transaction reads before it writes; SQLite's BEGIN IMMEDIATE already holds the file. */
  private readonly forUpdate: string;
  private readonly runs: RunLog;
  private readonly memories: MemoryCache;
  /** A lease's owner when the caller names none: read once (os.hostname() is a system call, a turn takes a lease). */
  private readonly owner = `pid ${process.pid} on ${hostname()}`;

  private constructor(
    private readonly db: SqlDriver,
    readonly where: string,
    options: StoreOptions,
  ) {
    const { now, ...rest } = options;
    this.options = { ...DEFAULTS, ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) };
    this.now = now ?? Date.now;
    this.forUpdate = db.dialect === "postgres" ? " FOR UPDATE" : "";
    this.runs = new RunLog(db, this.now, this.options);
    this.memories = new MemoryCache(this.options.memoryCache, this.options.memoryCacheMb * 1024 * 1024);
  }

  static async open(db: SqlDriver, where: string, options: StoreOptions = {}): Promise<SqlStore> {
    const store = new SqlStore(db, where, options);
    try {
      await migrate(db, store.now());
    } catch (err) {
      await db.close().catch(() => {});
      throw err;
    }
    return store;
  }

  // ---- threads -------------------------------------------------------------------------------

  async createThread(id: string = randomUUID()): Promise<ThreadInfo> {
    threadKey(id, "id");
    return this.db.transaction(async (tx) => {
      if (!(await this.insertThread(tx, id)))
        throw new StoreError("bad_request", `a thread '${id}' already exists in ${this.where}`);
      return threadInfo((await this.shown(tx, id))!, this.now());
    });
  }

  async thread(id: string): Promise<ThreadInfo | null> {
    threadKey(id, "id");
    const row = await this.shown(this.db, id);
    return row ? threadInfo(row, this.now()) : null;
  }

  async listThreads(options: { limit?: number; agent?: string } = {}): Promise<ThreadInfo[]> {
    checkListOptions(options);
    const limit = options.limit ?? -1;
    const where = options.agent === undefined ? "" : " WHERE agent = ? OR agent IS NULL";
    const params: unknown[] = [...(options.agent === undefined ? [] : [options.agent]), ...(limit >= 0 ? [limit] : [])];
    const rows = await this.db.all(
      `SELECT ${THREAD_COLUMNS} FROM threads${where} ORDER BY updated_at DESC, id${limit >= 0 ? " LIMIT ?" : ""}`,
      params,
    );
    const now = this.now();
    return rows.map((r) => threadInfo(r, now));
  }

  private row(sql: Sql, id: string, lock = ""): Promise<Row | undefined> {
    return first(sql, `SELECT ${THREAD_ROW} FROM threads WHERE id = ?${lock}`, [id]);
  }

  /** The row with what a ThreadInfo shows (its derived title). */
  private shown(sql: Sql, id: string): Promise<Row | undefined> {
    return first(sql, `SELECT ${THREAD_COLUMNS} FROM threads WHERE id = ?`, [id]);
  }

  private async existing(sql: Sql, id: string, lock = ""): Promise<Row> {
    const row = await this.row(sql, id, lock);
    if (!row) throw unknownThread(id, this.where);
    return row;
  }

  /**
   * Makes the thread's row; false when it exists. Two processes making the same new thread at once
   * (Postgres has no row to lock yet) both succeed: the second one finds the first one's row.
   */
  private async insertThread(
    tx: Sql,
    id: string,
    from?: { parent: string; seq: number; firstSeq: number; memory: Memory | null; agent: string | null },
  ): Promise<boolean> {
    const now = this.now();
    const m = from?.memory ?? null;
    return (
      1 ===
      (await tx.run(
        `INSERT INTO threads (id, agent, graph_hash, memory_checksum, version, done, first_seq, snap_seq, created_at, updated_at, parent_id, parent_seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
        [
          id,
          m?.graph.agent ?? from?.agent ?? null,
          m?.graph.hash ?? null,
          m?.checksum ?? null,
          from?.seq ?? 0,
          m?.done ?? false,
          from?.firstSeq ?? 1,
          m ? from!.seq : 0,
          now,
          now,
          from?.parent ?? null,
          from?.seq ?? null,
        ],
      ))
    );
  }

  // ---- leases ------------------------------------------------------------------------------

  async acquire(threadId: string, options: AcquireOptions = {}): Promise<Lease> {
    return (await this.taking(threadId, options, false)).lease!;
  }

  async takeThread(threadId: string, options: AcquireOptions = {}): Promise<TakenThread> {
    return this.taking(threadId, options, true);
  }

  /**
   * One transaction on the common path: the thread's row read once (with its live waiters and the
   * message id's turn), then the lease taken. A busy thread under `enqueue` gets a place in its
   * queue instead, and waits (`waitForTurn`). `forMessage`: the message id's turn, if it made
   * one, is given back instead of taking the thread, and the memory comes with the lease.
   */
  private async taking(threadId: string, options: AcquireOptions, forMessage: boolean): Promise<TakenThread> {
    threadKey(threadId);
    checkAcquireOptions(options);
    const policy = options.policy ?? "reject";
    const lease: Lease = {
      threadId,
      token: randomUUID(),
      owner: options.owner ?? this.owner,
      version: 0,
      messageId: options.messageId ?? null,
      ttlMs: options.ttlMs ?? this.options.leaseMs,
    };
    const user = options.user ?? null;
    keepable(lease.messageId, "messageId");
    keepable(user, "user");
    const checked = forMessage ? lease.messageId : null;
    if (this.db.dialect === "postgres") {
      // The memory read on the same connection: a lease is kept (renewed) once this returns.
      const quick = await this.db.session(async (sql) => {
        const took = await this.takeAtOnce(sql, lease, user, checked, options.agent);
        if (took === "absent") {
          // A new thread: made with its lease in one more statement, unless another caller made it first.
          const made = options.create !== false && (await this.makeTakenAtOnce(sql, lease, user));
          return made ? { lease: made, memory: null } : null;
        }
        return (
          took && {
            lease: took.lease,
            memory: forMessage ? await this.memoryOf(sql, threadId, took.row, took.lease.version) : null,
          }
        );
      });
      if (quick) return quick;
    }
    // A lease need not outlive a crash of the machine (it would lapse anyway), nor a place in a
    // queue, so taking one does not wait for the disk; the turn's commit does. Interrupting writes
    // a turn: that waits.
    const first = await this.retried(() =>
      this.db.transaction(
        async (tx): Promise<MadeTurn | { ticket: number } | { taken: Lease; row: Row }> => {
          const now = this.now();
          const row = await this.headRow(tx, threadId, now, checked, options.create !== false);
          if (
            options.agent !== undefined &&
            row.agent !== null &&
            row.agent !== undefined &&
            row.agent !== options.agent
          )
            throw unknownThread(threadId, this.where);
          if (row.made_seq !== null && row.made_seq !== undefined) return this.made(tx, row);
          const running = isLive(row, now);
          // The same message twice at once: the second neither interrupts the first (it would stop
          // its own turn and store it as interrupted) nor runs beside it.
          if (
            running &&
            lease.messageId !== null &&
            row.lease_message === lease.messageId &&
            (policy !== "enqueue" || options.sameMessage === "refuse")
          ) {
            if (optStr(row.lease_user) !== user) throw messageConflict(threadId, lease.messageId);
            throw new StoreError(
              "same_message",
              `message ${lease.messageId} is being answered on thread ${threadId} by the run in progress`,
            );
          }
          const queued = num(row.waiting);
          if (policy === "reject") {
            if (running) throw new StoreError("thread_busy", busyMessage(row, now));
            if (queued > 0)
              throw new StoreError(
                "thread_busy",
                `thread ${threadId} is busy: ${queued} message${queued === 1 ? " is" : "s are"} queued for it`,
              );
          }
          // First come, first served: a free thread with no one waiting is taken at once; otherwise
          // a ticket, and the lowest live ticket takes the thread once it is free.
          if (policy === "enqueue" && (running || queued > 0)) {
            const ticket = num(row.queue_tail) + 1;
            await tx.run("UPDATE threads SET queue_tail = ? WHERE id = ?", [ticket, threadId]);
            await tx.run("INSERT INTO waiters (thread_id, ticket, owner, expires) VALUES (?, ?, ?, ?)", [
              threadId,
              ticket,
              lease.owner,
              now + lease.ttlMs,
            ]);
            return { ticket };
          }
          let version = num(row.version);
          if (running && policy === "interrupt") {
            // The stopped run's message stays in the history, without a reply; memory is unchanged.
            version += 1;
            await this.insertTurn(tx, threadId, version, {
              messageId: optStr(row.lease_message),
              user: optStr(row.lease_user),
              reply: null,
              status: "interrupted",
              delta: null,
              trace: packJson([]),
              startedAt: num(row.lease_since),
              committedAt: now,
            });
          }
          // What the row's read told of the waiters and the message is checked again as the thread is
          // taken: on Postgres a read that waited for the row's lock saw the rest as it was before.
          const guard = { messageId: checked, waiters: policy !== "interrupt" };
          const taken = await this.take(tx, row, { ...lease, version }, user, now, guard);
          if (!taken) throw CONTENDED;
          return { taken, row };
        },
        { durable: policy === "interrupt" },
      ),
    );
    if ("made" in first) return first;
    if ("taken" in first) {
      const { taken, row } = first;
      // The memory is unchanged by an interrupted turn: the row's checksum still names it.
      return { lease: taken, memory: forMessage ? await this.memoryOf(this.db, threadId, row, taken.version) : null };
    }
    const taken = await this.waitForTurn(lease, user, options, first.ticket);
    if (!forMessage) return { lease: taken, memory: null };
    // A run that held the thread before this one may have made this message's turn meanwhile.
    const made = checked === null ? null : await this.turnByMessage(threadId, checked);
    if (made) {
      await this.release(taken);
      const row = await this.existing(this.db, threadId);
      return { made, endedThere: num(row.done) === 1 && made.seq === num(row.version) };
    }
    return { lease: taken, memory: await this.memoryAt(threadId, taken.version) };
  }

  /**
   * Postgres: a free thread with no one waiting, and no turn of the message yet, taken in one
   * statement on its own (one round trip, whose commit does not wait for the disk); null when
   * anything stands in the way, for the transaction to decide. The statement reads the waiters
   * and the message's turns as they were when it began: it takes the thread only if the row it
   * locked is the version it began with (its xmin), so that nothing committed meanwhile (a turn,
   * a place in the queue: each writes the row) escaped it. It names the columns it reads, so that
   * it is a prepared statement (parsed and planned once per connection, not for every message).
   */
  private async takeAtOnce(
    sql: Sql,
    lease: Lease,
    user: string | null,
    messageId: string | null,
    agent: string | undefined,
  ): Promise<{ lease: Lease; row: Row } | "absent" | null> {
    const now = this.now();
    const row = await first(
      sql,
      `WITH seen AS (SELECT xmin::text AS x FROM threads WHERE id = ?),
         head AS (SELECT id, agent, version, lease_token, lease_owner, lease_expires, memory_checksum, xmin::text AS x,
             (SELECT COUNT(*) FROM waiters WHERE waiters.thread_id = threads.id AND waiters.expires > ?) AS waiting,
             (SELECT COUNT(*) FROM turns WHERE turns.thread_id = threads.id AND turns.message_id = ?) AS made
           FROM threads WHERE id = ? FOR UPDATE),
         taken AS (UPDATE threads SET ${LEASE_COLUMNS}
           FROM head, seen
           WHERE threads.id = head.id AND head.x = seen.x AND (head.lease_token IS NULL OR head.lease_expires <= ?)
             AND head.waiting = 0 AND head.made = 0${agent === undefined ? "" : " AND (head.agent IS NULL OR head.agent = ?)"}
           RETURNING threads.id)
       SELECT version, lease_token, lease_owner, memory_checksum, (SELECT COUNT(*) FROM taken) AS took,
         set_config('synchronous_commit', 'off', true) AS lazy FROM head`,
      [
        lease.threadId,
        now,
        messageId,
        lease.threadId,
        ...leaseValues(lease, user, now),
        now,
        ...(agent === undefined ? [] : [agent]),
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
   * Postgres: a thread not in the store yet, made with the lease in its row by one statement on
   * its own (whose commit does not wait for the disk, as a take's); null when another caller made
   * the thread first (the transaction then decides).
   */
  private async makeTakenAtOnce(sql: Sql, lease: Lease, user: string | null): Promise<Lease | null> {
    const now = this.now();
    const row = await first(
      sql,
      `WITH made AS (INSERT INTO threads (id, version, done, first_seq, snap_seq, created_at, updated_at, ${LEASE_NAMES})
         VALUES (?, 0, 0, 1, 0, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id)
       SELECT (SELECT COUNT(*) FROM made) AS made, set_config('synchronous_commit', 'off', true) AS lazy`,
      [lease.threadId, now, now, ...leaseValues(lease, user, now)],
    );
    return num(row?.made) === 1 ? { ...lease, version: 0 } : null;
  }

  /**
   * The thread's row, made if new (`create`), with what taking it asks: its live waiters, and the
   * turn `messageId` made (`made_seq`), read by one statement.
   */
  private async headRow(tx: Sql, threadId: string, now: number, messageId: string | null, create: boolean) {
    const read = () =>
      first(
        tx,
        `SELECT ${THREAD_ROW},
           (SELECT COUNT(*) FROM waiters WHERE waiters.thread_id = threads.id AND waiters.expires > ?) AS waiting,
           (SELECT seq FROM turns WHERE turns.thread_id = threads.id AND turns.message_id = ?) AS made_seq
         FROM threads WHERE id = ?${this.forUpdate}`,
        [now, messageId, threadId],
      );
    const row = await read();
    if (row) return row;
    if (!create) throw unknownThread(threadId, this.where);
    await this.insertThread(tx, threadId);
    return (await read())!;
  }

  /** The turn the row's `made_seq` names: the message's, already made. */
  private async made(tx: Sql, row: Row): Promise<MadeTurn> {
    const seq = num(row.made_seq);
    const made = turnRecord((await first(tx, "SELECT * FROM turns WHERE thread_id = ? AND seq = ?", [row.id, seq]))!);
    return { made, endedThere: num(row.done) === 1 && seq === num(row.version) };
  }

  /** The memory at `version`, the row's head: the one this process committed, if the row still names it. */
  private memoryOf(sql: Sql, threadId: string, row: Row, version: number): Promise<Memory | null> {
    const kept = this.memories.get(threadId, optStr(row.memory_checksum));
    return kept ? Promise.resolve(kept) : this.memoryAfter(sql, threadId, version);
  }

  /**
   * Writes the lease into the row. `guard`: only if the message has made no turn and (`waiters`)
   * no one waits for the thread, as seen by this statement; null when that no longer holds.
   */
  private async take(
    tx: Sql,
    row: Row,
    lease: Lease,
    user: string | null,
    now: number,
    guard?: { messageId: string | null; waiters: boolean },
  ): Promise<Lease | null> {
    // A token still there but out of date: its holder neither committed nor released (nor renewed).
    if (row.lease_token !== null && row.lease_token !== undefined && !isLive(row, now))
      lease = { ...lease, lapsedOwner: String(row.lease_owner) };
    const made =
      guard?.messageId == null ? "" : " AND NOT EXISTS (SELECT 1 FROM turns WHERE thread_id = ? AND message_id = ?)";
    const waiting = guard?.waiters ? " AND NOT EXISTS (SELECT 1 FROM waiters WHERE thread_id = ? AND expires > ?)" : "";
    const changed = await tx.run(`UPDATE threads SET version = ?, ${LEASE_COLUMNS} WHERE id = ?${made}${waiting}`, [
      lease.version,
      ...leaseValues(lease, user, now),
      lease.threadId,
      ...(made ? [lease.threadId, guard!.messageId] : []),
      ...(waiting ? [lease.threadId, now] : []),
    ]);
    return changed === 1 ? lease : null;
  }

  /** `attempt` again while it fails with CONTENDED (it was rolled back: another writer got there first). */
  private async retried<T>(attempt: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await attempt();
      } catch (err) {
        if (err !== CONTENDED) throw err;
      }
    }
  }

  /** A waiter's turn: polls until its ticket is the lowest live one and the thread is free. */
  private async waitForTurn(
    lease: Lease,
    user: string | null,
    options: AcquireOptions,
    ticket: number,
  ): Promise<Lease> {
    const { threadId } = lease;
    const deadline = options.waitMs === undefined ? Infinity : this.now() + options.waitMs;
    const leave = () =>
      this.db.run("DELETE FROM waiters WHERE thread_id = ? AND ticket = ?", [threadId, ticket]).catch(() => 0);
    for (;;) {
      // A waiter whose caller gave up (a server shutting down) does not take the thread, even free.
      if (options.signal?.aborted) {
        await leave();
        throw new StoreError("thread_busy", `thread ${threadId} is busy, and the wait for it was given up`);
      }
      const taken = await this.db
        .transaction(
          async (tx) => {
            const row = await this.existing(tx, threadId, this.forUpdate);
            const now = this.now();
            await tx.run("DELETE FROM waiters WHERE thread_id = ? AND expires <= ?", [threadId, now]);
            // A waiter too slow to refresh its row keeps its place: it is still here, asking.
            await tx.run(
              this.db.dialect === "postgres"
                ? "INSERT INTO waiters (thread_id, ticket, owner, expires) VALUES (?, ?, ?, ?) ON CONFLICT (thread_id, ticket) DO UPDATE SET expires = EXCLUDED.expires"
                : "INSERT OR REPLACE INTO waiters (thread_id, ticket, owner, expires) VALUES (?, ?, ?, ?)",
              [threadId, ticket, lease.owner, now + lease.ttlMs],
            );
            const head = num(
              (await first(tx, "SELECT MIN(ticket) AS t FROM waiters WHERE thread_id = ?", [threadId]))?.t,
            );
            if (head !== ticket || isLive(row, now)) return null;
            await tx.run("DELETE FROM waiters WHERE thread_id = ? AND ticket = ?", [threadId, ticket]);
            return (await this.take(tx, row, { ...lease, version: num(row.version) }, user, now))!;
          },
          { durable: false },
        )
        .catch(async (err) => {
          await leave();
          throw err;
        });
      if (taken) return taken;
      if (this.now() >= deadline) {
        await leave();
        const row = await this.row(this.db, threadId);
        throw new StoreError("thread_busy", row ? busyMessage(row, this.now()) : `thread ${threadId} is busy`);
      }
      await sleep(this.options.pollMs);
    }
  }

  async renew(lease: Lease): Promise<boolean> {
    return (await this.renewAll([lease])).has(lease.token);
  }

  async renewAll(leases: readonly Lease[]): Promise<Set<string>> {
    const held = new Set<string>();
    const now = this.now();
    // Tokens are unique (random), so a row among these ids holding one of these tokens holds its
    // own: the pairs need not be matched in SQL, and the rows are found by their primary key.
    const byLifetime = new Map<number, Lease[]>();
    for (const l of leases) {
      const same = byLifetime.get(l.ttlMs);
      if (same) same.push(l);
      else byLifetime.set(l.ttlMs, [l]);
    }
    for (const [ttlMs, some] of byLifetime) {
      const ids = some.map((l) => l.threadId);
      const tokens = some.map((l) => l.token);
      const rows =
        this.db.dialect === "postgres"
          ? await this.db.leases.all(RENEWAL_SKIPPING_LOCKED, [ids, now + ttlMs, tokens, now, ids, tokens, now])
          : await this.db.leases.all(RENEWAL, [now + ttlMs, JSON.stringify(ids), JSON.stringify(tokens), now]);
      for (const r of rows) held.add(String(r.lease_token));
    }
    return held;
  }

  async release(lease: Lease): Promise<void> {
    await this.db.leases.run(`UPDATE threads SET ${LEASE_CLEARED} WHERE id = ? AND lease_token = ?`, [
      lease.threadId,
      lease.token,
    ]);
  }

  // ---- turns -------------------------------------------------------------------------------

  async commit(lease: Lease, turn: NewTurn): Promise<TurnRecord> {
    keepable(turn.messageId, "messageId");
    keepable(turn.user, "user");
    keepable(turn.reply, "reply");
    const columns = turnColumns(turn);
    const { run } = turn;
    if (run) this.runs.checkNumbering(run.runId, run.events, run.begin);
    const written = (now: number): Committing => ({
      lease,
      turn,
      columns,
      fields: {
        messageId: turn.messageId,
        user: turn.user,
        reply: turn.reply,
        status: "ok" as const,
        startedAt: turn.startedAt,
        committedAt: now,
      },
      seq: lease.version + 1,
      now,
    });
    // On Postgres the common turn (no snapshot due, nothing replaced, its run ending with it, or
    // no run: a program's runTurn) is one statement on its own, atomic as it is: one round trip,
    // not BEGIN, the statement and COMMIT. The statement writes nothing where a snapshot is due,
    // and the transaction below follows. A thread's first turn, whose snapshot is always due,
    // writes it in the same statement, when nothing else of its run is to be updated (it ends the
    // run, or goes on with the lease kept).
    const ownStatement = run ? run.end !== undefined : turn.continues !== true;
    const firstTurn = lease.version === 0 && (ownStatement || (run !== undefined && turn.continues === true));
    if (
      this.db.dialect === "postgres" &&
      turn.replaces === undefined &&
      (firstTurn || (columns.delta !== null && ownStatement))
    ) {
      // The time read once a connection is free: a lease that lapsed while the statement waited
      // for one does not commit.
      const w = await this.db.session(async (sql) => {
        const attempt = written(this.now());
        return (await this.commitInOneStatement(sql, attempt, firstTurn ? "first-turn" : "no-snapshot"))
          ? attempt
          : null;
      });
      if (w) {
        this.memories.set(lease.threadId, turn.memory);
        return committedRecord({ seq: w.seq, ...w.fields }, turn, columns);
      }
    }
    const record = await this.db.transaction(async (tx) => {
      const w = written(this.now());
      const { seq, fields, now } = w;
      // The message id is unique in a thread: it leaves the turn replaced before it names this one.
      if (turn.replaces !== undefined) {
        await tx.run("UPDATE turns SET status = 'replaced', message_id = NULL WHERE thread_id = ? AND seq = ?", [
          lease.threadId,
          turn.replaces,
        ]);
      }
      const snapshot =
        this.db.dialect === "postgres" ? await this.commitInOneStatement(tx, w) : await this.commitRows(tx, w);
      if (snapshot)
        await tx.run("INSERT INTO snapshots (thread_id, seq, memory) VALUES (?, ?, ?)", [
          lease.threadId,
          seq,
          packJson(turn.memory),
        ]);
      // The run that holds this lease, if one was recorded and goes on: with the next turn on the
      // same lease (still running, for that turn), or it writes its last events next.
      if (turn.continues)
        await tx.run(
          "UPDATE runs SET turn = ?, updated_at = ? WHERE thread_id = ? AND lease_token = ? AND status = 'running'",
          [seq + 1, now, lease.threadId, lease.token],
        );
      else if (!run?.end)
        await tx.run(
          "UPDATE runs SET status = 'committed', updated_at = ? WHERE thread_id = ? AND lease_token = ? AND status = 'running'",
          [now, lease.threadId, lease.token],
        );
      return committedRecord({ seq, ...fields }, turn, columns);
    });
    // Committed: this process's next turn on the thread starts from this very memory.
    this.memories.set(lease.threadId, turn.memory);
    return record;
  }

  /**
   * The commit's rows, statement by statement (SQLite, where a statement is no round trip): the
   * lease checked on the row, the turn, its run's events, the thread's new head. Whether the turn
   * keeps a snapshot of the whole memory.
   */
  private async commitRows(tx: Sql, { lease, turn, columns, fields, seq, now }: Committing): Promise<boolean> {
    const row = await this.row(tx, lease.threadId, this.forUpdate);
    const problem = leaseProblem(row, lease, now);
    if (problem) throw problem;
    const { delta } = columns;
    const sinceSnapshot = num(row!.snap_bytes) + (delta?.length ?? 0);
    const snapshot =
      delta === null ||
      num(row!.snap_seq) === 0 ||
      seq - num(row!.snap_seq) >= this.options.snapshotEvery ||
      sinceSnapshot >= this.options.snapshotBytes;
    await this.insertTurn(tx, lease.threadId, seq, { ...fields, delta, trace: columns.trace });
    const { run } = turn;
    if (run && !(await this.runs.appendWithin(tx, run.runId, run.events, run.end, run.begin)))
      throw runEnded(run, lease);
    await tx.run(
      `UPDATE threads SET version = ?, agent = ?, graph_hash = ?, memory_checksum = ?, done = ?, snap_seq = ?, snap_bytes = ?, updated_at = ?${turn.continues ? "" : `, ${LEASE_CLEARED}`}
       WHERE id = ?`,
      [
        seq,
        turn.memory.graph.agent,
        turn.memory.graph.hash,
        turn.memory.checksum,
        turn.memory.done,
        snapshot ? seq : num(row!.snap_seq),
        snapshot ? 0 : sinceSnapshot,
        now,
        lease.threadId,
      ],
    );
    return snapshot;
  }

  /**
   * The commit's rows in one statement (Postgres, where each statement is a round trip): the
   * thread's new head written only where the lease still holds (the row locked by that update),
   * the turn and the run's events with it, the snapshot decided from the row as it was. Whether
   * the turn keeps a snapshot of the whole memory. `alone` (a statement on its own, not in a
   * transaction): all or nothing is written, nothing where the lease no longer holds or the run
   * refuses its events, nor (`no-snapshot`) where a snapshot is due: then false (the transaction
   * finds out why); else true. `first-turn`: the thread's first turn, with its snapshot (always
   * due) and, for a commit that keeps the lease, the run's next turn.
   */
  private async commitInOneStatement(
    tx: Sql,
    { lease, turn, columns, fields, seq, now }: Committing,
    alone?: "no-snapshot" | "first-turn",
  ): Promise<boolean> {
    const withoutSnapshot = alone === "no-snapshot";
    const withSnapshot = alone === "first-turn";
    const { delta, trace } = columns;
    const bytes = delta?.length ?? 0;
    // The same rule as commitRows', on the row's values before this update.
    const due =
      "(CAST(? AS INTEGER) = 1 OR snap_seq = 0 OR CAST(? AS INTEGER) - snap_seq >= CAST(? AS INTEGER) OR snap_bytes + CAST(? AS BIGINT) >= CAST(? AS BIGINT))";
    const dueParams = [delta === null ? 1 : 0, seq, this.options.snapshotEvery, bytes, this.options.snapshotBytes];
    const { run } = turn;
    // A commit on its own that carries no run ends the one its lease may have recorded (events
    // written apart), as the transaction's way does after the statement.
    const settles = alone !== undefined && !run && turn.continues !== true;
    const batch =
      run &&
      this.runs.batchStatement(
        run.runId,
        run.events,
        run.events[0]?.seq ?? null,
        run.end,
        run.begin,
        withSnapshot && turn.continues ? seq + 1 : undefined,
      );
    const row = await first(
      tx,
      `WITH head AS (
         UPDATE threads SET version = CAST(? AS INTEGER), agent = ?, graph_hash = ?, memory_checksum = ?, done = CAST(? AS INTEGER),
           snap_seq = CASE WHEN ${due} THEN CAST(? AS INTEGER) ELSE snap_seq END,
           snap_bytes = CASE WHEN ${due} THEN 0 ELSE snap_bytes + CAST(? AS BIGINT) END,
           updated_at = CAST(? AS BIGINT)${turn.continues ? "" : `, ${LEASE_CLEARED}`}
         WHERE id = ? AND lease_token = ? AND version = CAST(? AS INTEGER) AND lease_expires > CAST(? AS BIGINT)${withoutSnapshot ? ` AND NOT ${due}` : ""}
         RETURNING snap_seq),
       turn AS (INSERT INTO turns (thread_id, seq, message_id, user_text, reply, status, delta, trace, started_at, committed_at)
         SELECT ?, CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), 'ok', CAST(? AS BYTEA), CAST(? AS BYTEA), CAST(? AS BIGINT), CAST(? AS BIGINT) FROM head)${
           withSnapshot
             ? `,
       snap AS (INSERT INTO snapshots (thread_id, seq, memory) SELECT ?, CAST(? AS INTEGER), CAST(? AS BYTEA) FROM head)`
             : ""
         }${
           settles
             ? `,
       settled AS (UPDATE runs SET status = 'committed', updated_at = CAST(? AS BIGINT)
         WHERE thread_id = ? AND lease_token = ? AND status = 'running' AND EXISTS (SELECT 1 FROM head))`
             : ""
         }${
           batch
             ? `,
       ${batch.ctes}`
             : ""
         }
       SELECT (SELECT snap_seq FROM head) AS snap_seq, (SELECT COUNT(*) FROM head) AS committed${batch ? `, ${batch.taken} AS taken` : ""}${
         // On its own, the statement must write all or nothing: it fails (and so writes nothing)
         // unless the head and the run's events were both written.
         alone ? `, 1 / ((SELECT COUNT(*) FROM head) * (${batch ? batch.taken : "1"})) AS ${NOT_COMMITTED}` : ""
       }`,
      [
        seq,
        turn.memory.graph.agent,
        turn.memory.graph.hash,
        turn.memory.checksum,
        turn.memory.done,
        ...dueParams,
        seq,
        ...dueParams,
        bytes,
        now,
        lease.threadId,
        lease.token,
        lease.version,
        now,
        ...(withoutSnapshot ? dueParams : []),
        lease.threadId,
        seq,
        fields.messageId,
        fields.user,
        fields.reply,
        delta,
        trace,
        fields.startedAt,
        fields.committedAt,
        ...(withSnapshot ? [lease.threadId, seq, packJson(turn.memory)] : []),
        ...(settles ? [now, lease.threadId, lease.token] : []),
        ...(batch ? batch.params : []),
      ],
    ).catch((err: unknown) => {
      // The guard's division by zero: nothing was written (no matter why: the transaction finds out).
      if (alone && (err as { code?: unknown } | null)?.code === DIVISION_BY_ZERO) return null;
      throw err;
    });
    if (row === null) return false;
    // Nothing written where the lease no longer holds (the statement is rolled back): why, from the row.
    if (num(row?.committed) === 0) throw leaseProblem(await this.row(tx, lease.threadId), lease, now) ?? lapsed(lease);
    if (run && num(row?.taken) === 0) {
      await this.runs.refused(tx, run.runId);
      throw runEnded(run, lease);
    }
    return alone !== undefined || num(row?.snap_seq) === seq;
  }

  private async insertTurn(
    tx: Sql,
    threadId: string,
    seq: number,
    t: {
      messageId: string | null;
      user: string | null;
      reply: string | null;
      status: TurnStatus;
      delta: Buffer | null;
      trace: Buffer;
      startedAt: number;
      committedAt: number;
    },
  ): Promise<void> {
    await tx.run(
      `INSERT INTO turns (thread_id, seq, message_id, user_text, reply, status, delta, trace, started_at, committed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [threadId, seq, t.messageId, t.user, t.reply, t.status, t.delta, t.trace, t.startedAt, t.committedAt],
    );
  }

  async turnByMessage(threadId: string, messageId: string): Promise<TurnRecord | null> {
    threadKey(threadId);
    if (typeof messageId !== "string")
      throw new StoreError("bad_request", `messageId: must be a string, not ${describe(messageId)}`);
    // No turn has one (see keepable), and Postgres would refuse the query.
    if (messageId.includes("\u0000")) return null;
    const row = await first(this.db, "SELECT * FROM turns WHERE thread_id = ? AND message_id = ?", [
      threadId,
      messageId,
    ]);
    return row ? turnRecord(row) : null;
  }

  async turns(threadId: string): Promise<TurnRecord[]> {
    threadKey(threadId);
    await this.existing(this.db, threadId);
    return (await this.db.all("SELECT * FROM turns WHERE thread_id = ? ORDER BY seq", [threadId])).map(turnRecord);
  }

  async load(threadId: string): Promise<LoadedThread> {
    threadKey(threadId);
    const row = await this.shown(this.db, threadId);
    if (!row) throw unknownThread(threadId, this.where);
    return { info: threadInfo(row, this.now()), memory: await this.head(row) };
  }

  /** The memory at the thread's head: the one this process committed, if the row still names it. */
  private head(row: Row): Promise<Memory | null> {
    const threadId = String(row.id);
    const kept = this.memories.get(threadId, optStr(row.memory_checksum));
    return kept ? Promise.resolve(kept) : this.memoryAfter(this.db, threadId, num(row.version));
  }

  async memoryAt(threadId: string, turn: number): Promise<Memory | null> {
    threadKey(threadId);
    turnNumber(turn);
    const row = await this.existing(this.db, threadId);
    const version = num(row.version);
    const firstSeq = num(row.first_seq);
    if (!Number.isInteger(turn) || turn < 0 || turn > version)
      throw new StoreError("bad_request", `thread ${threadId} has turns 0 to ${version}; there is no turn ${turn}`);
    if (turn > 0 && turn < firstSeq - 1)
      throw new StoreError(
        "bad_request",
        `thread ${threadId}'s turns before ${firstSeq} were pruned; its memory is kept from turn ${firstSeq - 1} on`,
      );
    if (turn === 0) return null;
    return turn === version ? this.head(row) : this.memoryAfter(this.db, threadId, turn);
  }

  /** The memory after turn `seq`: the last snapshot at or before it, then the deltas after that. */
  private async memoryAfter(sql: Sql, threadId: string, seq: number): Promise<Memory | null> {
    // Before its first turn a thread has no memory: nothing to read (a new thread's first message
    // takes it twice before its opening is committed).
    if (seq === 0) return null;
    const snap = await first(
      sql,
      "SELECT seq, memory FROM snapshots WHERE thread_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1",
      [threadId, seq],
    );
    if (!snap) return null;
    const deltas = await sql.all(
      "SELECT delta FROM turns WHERE thread_id = ? AND seq > ? AND seq <= ? AND delta IS NOT NULL ORDER BY seq",
      [threadId, num(snap.seq), seq],
    );
    return replayDeltas(
      unpackJson(snap.memory) as Memory,
      deltas.map((d) => unpackJson(d.delta)),
    );
  }

  // ---- history -----------------------------------------------------------------------------

  async fork(threadId: string, turn: number, newId: string = randomUUID()): Promise<ThreadInfo> {
    threadKey(threadId);
    turnNumber(turn);
    threadKey(newId, "newId");
    return this.db.transaction(async (tx) => {
      const src = await this.existing(tx, threadId);
      const version = num(src.version);
      const firstSeq = num(src.first_seq);
      if (!Number.isInteger(turn) || turn < 0 || turn > version) {
        throw new StoreError("bad_request", `thread ${threadId} has turns 0 to ${version}; cannot fork at ${turn}`);
      }
      if (turn > 0 && turn < firstSeq - 1) {
        throw new StoreError(
          "bad_request",
          `thread ${threadId}'s turns before ${firstSeq} were pruned; fork at ${firstSeq - 1} or later`,
        );
      }
      const memory = turn === 0 ? null : await this.memoryAfter(tx, threadId, turn);
      // A fork at turn 0 has no memory yet, but it is still the source's agent's thread: on a store
      // that several agents share, another agent's server must not take it.
      if (
        !(await this.insertThread(tx, newId, {
          parent: threadId,
          seq: turn,
          firstSeq: turn === 0 ? 1 : firstSeq,
          memory,
          agent: optStr(src.agent),
        }))
      ) {
        throw new StoreError("bad_request", `a thread '${newId}' already exists in ${this.where}`);
      }
      if (turn > 0) {
        await tx.run(
          `INSERT INTO turns (thread_id, seq, message_id, user_text, reply, status, delta, trace, started_at, committed_at)
           SELECT ?, seq, message_id, user_text, reply, status, delta, trace, started_at, committed_at FROM turns WHERE thread_id = ? AND seq <= ?`,
          [newId, threadId, turn],
        );
      }
      if (memory)
        await tx.run("INSERT INTO snapshots (thread_id, seq, memory) VALUES (?, ?, ?)", [
          newId,
          turn,
          packJson(memory),
        ]);
      return threadInfo((await this.shown(tx, newId))!, this.now());
    });
  }

  async exportThread(threadId: string): Promise<ThreadExport> {
    threadKey(threadId);
    const { info, memory } = await this.load(threadId);
    const { running: _running, ...thread } = info;
    const turns = (
      await this.db.all("SELECT * FROM turns WHERE thread_id = ? AND seq <= ? ORDER BY seq", [threadId, info.version])
    ).map(turnRecord);
    return { format: "autograms-thread", version: 1, thread, turns, memory };
  }

  async setTitle(threadId: string, title: string | null): Promise<ThreadInfo> {
    threadKey(threadId);
    checkTitle(title);
    const given = title === null ? null : title.trim();
    if (given !== null && (given === "" || given.length > TITLE_MAX || /[\u0000-\u001f\u007f]/.test(given))) {
      throw new StoreError(
        "bad_request",
        `a title is 1 to ${TITLE_MAX} characters on one line, without control characters (null: called by its first message again)`,
      );
    }
    return this.db.transaction(async (tx) => {
      await this.existing(tx, threadId);
      await tx.run("UPDATE threads SET title = ? WHERE id = ?", [given, threadId]);
      return threadInfo((await this.shown(tx, threadId))!, this.now());
    });
  }

  async deleteThread(threadId: string): Promise<boolean> {
    threadKey(threadId);
    this.memories.forget(threadId);
    return this.db.transaction((tx) => this.deleteRows(tx, threadId));
  }

  private async deleteRows(tx: Sql, threadId: string): Promise<boolean> {
    // Children first, so the store leaves no orphan rows whether or not foreign keys cascade.
    await tx.run("DELETE FROM run_events WHERE run_id IN (SELECT id FROM runs WHERE thread_id = ?)", [threadId]);
    for (const table of ["runs", "waiters", "snapshots", "turns"])
      await tx.run(`DELETE FROM ${table} WHERE thread_id = ?`, [threadId]);
    return (await tx.run("DELETE FROM threads WHERE id = ?", [threadId])) > 0;
  }

  async prune(options: PruneOptions): Promise<PruneResult> {
    checkPruneOptions(options);
    const result: PruneResult = { threadsDeleted: 0, turnsDeleted: 0 };
    const now = this.now();
    if (options.olderThanMs !== undefined) {
      const idle = await this.db.all("SELECT id FROM threads WHERE updated_at < ?", [now - options.olderThanMs]);
      for (const { id } of idle) {
        await this.db.transaction(async (tx) => {
          // Checked again under the lock: a thread that became busy or moved on meanwhile stays.
          const row = await this.row(tx, String(id), this.forUpdate);
          if (!row || num(row.updated_at) >= now - options.olderThanMs! || isLive(row, this.now())) return;
          result.turnsDeleted += num(row.version) - num(row.first_seq) + 1;
          if (await this.deleteRows(tx, String(id))) result.threadsDeleted++;
        });
      }
    }
    if (options.keepTurns !== undefined) {
      const keep = Math.max(0, options.keepTurns);
      const long = await this.db.all("SELECT id FROM threads WHERE version - first_seq + 1 > ?", [keep]);
      for (const { id } of long)
        result.turnsDeleted += await this.db.transaction((tx) => this.trim(tx, String(id), keep));
    }
    return result;
  }

  /**
   * Drops a thread's oldest turns, keeping at least its last `keep`: the kept history starts right
   * after a snapshot, so the thread, and a fork at any kept turn, still load.
   */
  private async trim(tx: Sql, threadId: string, keep: number): Promise<number> {
    const row = await this.row(tx, threadId, this.forUpdate);
    if (!row) return 0;
    const cut = num(row.version) - keep;
    const snap = optNum(
      (await first(tx, "SELECT MAX(seq) AS s FROM snapshots WHERE thread_id = ? AND seq <= ?", [threadId, cut]))?.s,
    );
    if (snap === null || snap < num(row.first_seq)) return 0;
    const dropped = await tx.run("DELETE FROM turns WHERE thread_id = ? AND seq <= ?", [threadId, snap]);
    // The runs that made the dropped turns go with them.
    await tx.run("DELETE FROM run_events WHERE run_id IN (SELECT id FROM runs WHERE thread_id = ? AND turn <= ?)", [
      threadId,
      snap,
    ]);
    await tx.run("DELETE FROM runs WHERE thread_id = ? AND turn <= ?", [threadId, snap]);
    await tx.run("DELETE FROM snapshots WHERE thread_id = ? AND seq < ?", [threadId, snap]);
    await tx.run("UPDATE threads SET first_seq = ? WHERE id = ?", [snap + 1, threadId]);
    return dropped;
  }

  // ---- runs --------------------------------------------------------------------------------

  beginRun(run: NewRun): Promise<RunRecord> {
    return this.runs.begin(run);
  }

  continueRun(runId: string, lease: Lease): Promise<void> {
    return this.runs.continueWith(runId, lease);
  }

  appendRunEvents(
    runId: string,
    events: readonly RunEventRecord[],
    end?: "finished" | "failed",
    begin?: NewRun,
  ): Promise<boolean> {
    return this.runs.append(runId, events, end, begin);
  }

  async runEvents(runId: string, afterSeq?: number, limit?: number): Promise<RunEventRecord[]> {
    runKey(runId);
    return this.runs.events(runId, afterSeq, limit);
  }

  async run(runId: string): Promise<RunRecord | null> {
    runKey(runId);
    return this.settled(this.runs.get(runId));
  }

  /** The thread's latest run as it stands (`abandoned` included: reading it by id settles it). */
  async latestRun(threadId: string): Promise<RunRecord | null> {
    threadKey(threadId);
    return this.runs.latest(threadId);
  }

  /** A run as read, its end written first if its process died before writing it (settleRun). */
  private async settled(reading: Promise<RunRecord | null>): Promise<RunRecord | null> {
    const run = await reading;
    if (run?.status !== "abandoned") return run;
    await settleRun(this, run);
    return this.runs.get(run.id);
  }

  watchRun(runId: string, listener: () => void): () => void {
    return this.runs.watch(runId, listener);
  }

  async ping(): Promise<void> {
    // A write that changes nothing, committed and synced as a turn's commit is: a store that
    // answers reads but cannot write (a full disk, a damaged or read-only file) is not ready.
    try {
      await this.db.transaction((tx) =>
        tx.run("UPDATE schema_migrations SET applied_at = applied_at WHERE version = ?", [SCHEMA_VERSION]),
      );
      await this.db.check();
    } catch (err) {
      throw new StoreError("unavailable", whyUnwritable(err));
    }
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}

/** Postgres's SQLSTATE for a division by zero: what the one-statement commit's guard raises. */
const DIVISION_BY_ZERO = "22012";
const NOT_COMMITTED = "not_committed";

/** What a commit writes, as both of its ways take it. */
interface Committing {
  lease: Lease;
  turn: NewTurn;
  columns: TurnColumns;
  fields: {
    messageId: string | null;
    user: string | null;
    reply: string | null;
    status: "ok";
    startedAt: number;
    committedAt: number;
  };
  seq: number;
  now: number;
}

/** A thread's lease columns as a commit or a release leaves them: the thread free. */
const LEASE_CLEARED =
  "lease_token = NULL, lease_owner = NULL, lease_message = NULL, lease_user = NULL, lease_since = NULL, lease_expires = NULL";

/** Why a commit under `lease` cannot be made on the thread's row as it is; null: it can. */
function leaseProblem(row: Row | undefined, lease: Lease, now: number): StoreError | null {
  if (!row)
    return new StoreError(
      "lease_lost",
      `thread ${lease.threadId} was deleted while this turn ran; nothing was committed`,
    );
  if (row.lease_token !== lease.token || num(row.version) !== lease.version)
    return new StoreError(
      "lease_lost",
      `thread ${lease.threadId} was taken over while this turn ran (${row.lease_token === null ? "its lease expired" : `now run by ${String(row.lease_owner)}`}); nothing was committed`,
    );
  if (!isLive(row, now)) return lapsed(lease);
  return null;
}

function lapsed(lease: Lease): StoreError {
  return new StoreError(
    "lease_lost",
    `the lease on thread ${lease.threadId} lapsed before this turn was committed (not renewed for ${lease.ttlMs} ms: the process stalled); nothing was committed`,
  );
}

/** The run's events were refused: another writer ended the run (it thought this one dead). */
function runEnded(run: RunWrite, lease: Lease): StoreError {
  return new StoreError(
    "lease_lost",
    `run ${run.runId} on thread ${lease.threadId} was ended by another process while its turn ran; nothing was committed`,
  );
}

function unknownThread(id: string, where: string): StoreError {
  return new StoreError("unknown_thread", `no thread '${id}' in ${where}`);
}

/** A transaction found that a concurrent one changed what it read: rolled back, it runs again. */
const CONTENDED = new Error("contended");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
