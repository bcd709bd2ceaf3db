/**
 * The store's logic, written once over `SqlDriver` for SQLite and Postgres alike; what each
 * dialect writes its own way (a turn's commit, a batch of run events, the renewal of leases) is in
 * its subclass (sqlite/store.ts, postgres/store.ts). The runs (run-log.ts) and the experiments
 * (experiments.ts) are its base classes, a concern of the Store interface each.
 *
 * A turn never holds a database transaction while the model thinks: `acquire` takes a lease on the
 * thread in one short transaction, the run happens outside, and `commit` appends the turn in a
 * second one that checks the lease token and the version (compare-and-swap). A process killed at
 * any point leaves either no trace of its turn or all of it, and its lease expires.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { applyDelta, shownValue, type Memory } from "@autograms/runtime";
import { messageConflict, StoreError } from "../errors.js";
import { MemoryCache } from "../memory-cache.js";
import type {
  AcquireOptions,
  Lease,
  LoadedThread,
  NewTurn,
  PruneOptions,
  PruneResult,
  Store,
  StoreOptions,
  TakenThread,
  ThreadExport,
  ThreadInfo,
  TurnRecord,
} from "../types.js";
import { first, listing, num, optNum, optStr, type Row, type Sql, type SqlDriver } from "./driver.js";
import { migrate, SCHEMA_VERSION } from "./migrations.js";
import { packJson, unpackJson } from "./packed-json.js";
import {
  busyMessage,
  isLive,
  LEASE_CLEARED,
  LEASE_COLUMNS,
  leaseValues,
  THREAD_ROW,
  threadInfo,
  turnRecord,
} from "./rows.js";
import {
  checkAcquireOptions,
  checkPruneOptions,
  checkSettingsText,
  definedOnly,
  checkTitle,
  keepable,
  threadKey,
  turnNumber,
} from "../arguments.js";
import { RunLog } from "./run-log.js";
import { type Committing, committedRecord, leaseProblem, runAfter, turnColumns } from "./committing.js";

/**
 * A take as asked: the lease it gives, the user's message, the message id whose turn is given back
 * instead (null: none is looked for), and whether the memory comes with the lease (`forMessage`).
 */
export interface Take {
  lease: Lease;
  user: string | null;
  messageId: string | null;
  options: AcquireOptions;
  forMessage: boolean;
}

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

export abstract class SqlStore extends RunLog implements Store {
  protected readonly memories: MemoryCache;
  /** A lease's owner when the caller names none: read once (os.hostname() is a system call, a turn takes a lease). */
  private readonly owner = `pid ${process.pid} on ${hostname()}`;

  constructor(
    db: SqlDriver,
    readonly where: string,
    { now, ...rest }: StoreOptions,
  ) {
    super(db, now ?? Date.now, { ...DEFAULTS, ...definedOnly(rest) });
    this.memories = new MemoryCache(this.options.memoryCache, this.options.memoryCacheMb * 1024 * 1024);
  }

  /** The store, its database migrated first (closed if that fails). */
  async migrated(): Promise<this> {
    try {
      await migrate(this.db, this.now());
    } catch (err) {
      await this.db.close().catch(() => {});
      throw err;
    }
    return this;
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
    const { where, limit, params } = listing(options, "agent = ? OR agent IS NULL");
    const rows = await this.db.all(
      `SELECT ${THREAD_COLUMNS} FROM threads${where} ORDER BY updated_at DESC, id${limit}`,
      params,
    );
    const now = this.now();
    return rows.map((r) => threadInfo(r, now));
  }

  protected row(sql: Sql, id: string, lock = ""): Promise<Row | undefined> {
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
   * A free thread (no live lease, no one waiting, no turn of the message yet) is taken at once, by
   * the dialect's own write (`takeAtOnce`). Whatever stands in the way is decided by `decide`: the
   * message id's turn, if it made one, is given back (`forMessage`) instead of taking the thread;
   * a busy thread is refused, queued for (`enqueue`: a place in its queue, then `waitForTurn`), or
   * taken over (`interrupt`, `rollback`). With `forMessage`, the memory comes with the lease.
   */
  private async taking(threadId: string, options: AcquireOptions, forMessage: boolean): Promise<TakenThread> {
    threadKey(threadId);
    checkAcquireOptions(options);
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
    const take: Take = { lease, user, messageId: checked, options, forMessage };
    let decided: Decided;
    do decided = await this.takeAtOnce(take);
    while (decided === FREE);
    if ("made" in decided || "memory" in decided) return decided;
    if ("taken" in decided) {
      const { taken, row } = decided;
      // The memory is unchanged by an interrupted turn: the row's checksum still names it.
      return {
        lease: taken,
        memory: forMessage ? await this.memoryOf(this.db, threadId, row, taken.version) : null,
        settings: forMessage ? optStr(row.settings) : null,
      };
    }
    const taken = await this.waitForTurn(lease, user, options, decided.ticket);
    if (!forMessage) return { lease: taken, memory: null, settings: null };
    // A run that held the thread before this one may have made this message's turn meanwhile.
    const made = checked === null ? null : await this.turnByMessage(threadId, checked);
    if (made) {
      await this.release(taken);
      const row = await this.existing(this.db, threadId);
      return { made, endedThere: num(row.done) === 1 && made.seq === num(row.version) };
    }
    return {
      lease: taken,
      memory: await this.memoryAt(threadId, taken.version),
      settings: await this.threadSettings(threadId),
    };
  }

  /**
   * The dialect's take: a free thread taken by its own write (made first if new, unless `create`
   * is false), anything else decided by `decide`; FREE when what stood in the way has gone since,
   * for the take to be tried again.
   */
  protected abstract takeAtOnce(take: Take): Promise<Decided>;

  /**
   * `work` on the thread's row (`headRow`, made if new) in one transaction, run again where it was
   * contended. A lease need not outlive a crash of the machine (it would lapse anyway), nor a
   * place in a queue, so taking one does not wait for the disk; the turn's commit does.
   * Interrupting writes a turn: that waits.
   */
  protected onHeadRow(take: Take, work: (tx: Sql, row: Row, now: number) => Promise<Decided>): Promise<Decided> {
    const { lease, messageId, options } = take;
    return this.retried(() =>
      this.db.transaction(
        async (tx) => {
          const now = this.now();
          return work(tx, await this.headRow(tx, lease.threadId, now, messageId, options.create !== false), now);
        },
        { durable: options.policy === "interrupt" },
      ),
    );
  }

  /**
   * What stands in the way of taking the thread, decided on its row (`headRow`); FREE when nothing
   * does: a free thread is the dialect's to take (`takeAtOnce`), never taken here.
   */
  protected async decide(tx: Sql, row: Row, now: number, take: Take): Promise<Decided> {
    const { lease, user, options } = take;
    const { threadId } = lease;
    const policy = options.policy ?? "reject";
    if (options.agent !== undefined && row.agent !== null && row.agent !== undefined && row.agent !== options.agent)
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
    if (!running && queued === 0) return FREE;
    if (policy === "reject") {
      if (running) throw new StoreError("thread_busy", busyMessage(row, now));
      throw new StoreError(
        "thread_busy",
        `thread ${threadId} is busy: ${queued} message${queued === 1 ? " is" : "s are"} queued for it`,
      );
    }
    // First come, first served: a ticket, and the lowest live ticket takes the thread once it is
    // free.
    if (policy === "enqueue") {
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
    return this.takeRow(tx, row, version, take, now);
  }

  /**
   * Writes the lease (at `version`) into the row read, and records the run that takes it
   * (`runId`). What the row's read told of the waiters and the message is checked again as the
   * thread is taken (on Postgres a read that waited for the row's lock saw the rest as it was
   * before): where it no longer holds, the transaction is rolled back and run again (CONTENDED).
   */
  protected async takeRow(tx: Sql, row: Row, version: number, take: Take, now: number): Promise<Decided> {
    const { lease, user, messageId, options } = take;
    const guard = { messageId, waiters: options.policy !== "interrupt" };
    const taken = await this.take(tx, row, { ...lease, version }, user, now, guard);
    if (!taken) throw CONTENDED;
    if (options.runId !== undefined) await this.insertRun(tx, options.runId, { lease: taken, user });
    return { taken, row };
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
         FROM threads WHERE id = ?${this.db.lockRow}`,
        [now, messageId, threadId],
      );
    const row = await read();
    if (row) return row;
    if (!create) throw unknownThread(threadId, this.where);
    await this.insertThread(tx, threadId);
    return (await read())!;
  }

  /** The turn the row's `made_seq` names: the message's, already made. */
  private async made(tx: Sql, row: Row): Promise<Extract<TakenThread, { made: TurnRecord }>> {
    const seq = num(row.made_seq);
    const made = turnRecord((await first(tx, "SELECT * FROM turns WHERE thread_id = ? AND seq = ?", [row.id, seq]))!);
    return { made, endedThere: num(row.done) === 1 && seq === num(row.version) };
  }

  /** The memory at `version`, the row's head: the one this process committed, if the row still names it. */
  protected memoryOf(sql: Sql, threadId: string, row: Row, version: number): Promise<Memory | null> {
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
            const row = await this.existing(tx, threadId, this.db.lockRow);
            const now = this.now();
            await tx.run("DELETE FROM waiters WHERE thread_id = ? AND expires <= ?", [threadId, now]);
            // A waiter too slow to refresh its row keeps its place: it is still here, asking.
            await tx.run(
              "INSERT INTO waiters (thread_id, ticket, owner, expires) VALUES (?, ?, ?, ?) ON CONFLICT (thread_id, ticket) DO UPDATE SET owner = excluded.owner, expires = excluded.expires",
              [threadId, ticket, lease.owner, now + lease.ttlMs],
            );
            const head = num(
              (await first(tx, "SELECT MIN(ticket) AS t FROM waiters WHERE thread_id = ?", [threadId]))?.t,
            );
            if (head !== ticket || isLive(row, now)) return null;
            await tx.run("DELETE FROM waiters WHERE thread_id = ? AND ticket = ?", [threadId, ticket]);
            const taken = (await this.take(tx, row, { ...lease, version: num(row.version) }, user, now))!;
            if (options.runId !== undefined) await this.insertRun(tx, options.runId, { lease: taken, user });
            return taken;
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
      for (const token of await this.renewLeases(ids, tokens, now + ttlMs, now)) held.add(token);
    }
    return held;
  }

  /**
   * Extends to `expires` the leases among these threads that hold one of these tokens and have not
   * lapsed by `now` (on the database's connections for leases, `db.leases`): the tokens still held.
   */
  protected abstract renewLeases(
    ids: string[],
    tokens: string[],
    expires: number,
    now: number,
  ): Promise<Iterable<string>>;

  async release(lease: Lease, options: { dropRun?: boolean } = {}): Promise<void> {
    if (options.dropRun) await this.dropRun(lease);
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
    const from = run ? this.checkNumbering(run.runId, run.events, run.begin) : null;
    const seq = lease.version + 1;
    const committedAt = await this.writeTurn({ lease, turn, columns, seq, from, ...runAfter(turn, seq) });
    // Committed: this process's next turn on the thread starts from this very memory.
    this.memories.set(lease.threadId, turn.memory);
    const { messageId, user, reply, startedAt } = turn;
    return committedRecord({ seq, messageId, user, reply, status: "ok", startedAt, committedAt }, turn, columns);
  }

  /**
   * Writes a turn's commit, all of it or nothing (see Committing); the time it was committed at.
   * Throws `lease_lost` where the lease no longer holds, or the run's events were refused.
   */
  protected abstract writeTurn(commit: Committing): Promise<number>;

  /** Why nothing was written under `lease`, read from the thread's row; null when the lease holds. */
  protected async leaseProblemOf(sql: Sql, lease: Lease, now: number): Promise<StoreError | null> {
    return leaseProblem(await this.row(sql, lease.threadId), lease, now);
  }

  protected async insertTurn(
    tx: Sql,
    threadId: string,
    seq: number,
    t: Omit<TurnRecord, "seq" | "delta" | "trace"> & { delta: Buffer | null; trace: Buffer },
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
      throw new StoreError("bad_request", `messageId: must be a string, not ${shownValue(messageId)}`);
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
    return { info: threadInfo(row, this.now()), memory: await this.memoryOf(this.db, threadId, row, num(row.version)) };
  }

  async memoryAt(threadId: string, turn: number): Promise<Memory | null> {
    threadKey(threadId);
    turnNumber(turn);
    const row = await this.existing(this.db, threadId);
    keptTurn(row, turn, `there is no turn ${turn}`, (kept) => `its memory is kept from turn ${kept} on`);
    if (turn === 0) return null;
    return turn === num(row.version)
      ? this.memoryOf(this.db, threadId, row, turn)
      : this.memoryAfter(this.db, threadId, turn);
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
    // Each delta names the checksum of the memory it applies to, so a gap or a wrong order is
    // refused (`bad_delta`) rather than rebuilt into some other memory.
    return deltas.reduce((memory, d) => applyDelta(memory, unpackJson(d.delta)), unpackJson(snap.memory) as Memory);
  }

  // ---- history -----------------------------------------------------------------------------

  async fork(threadId: string, turn: number, newId: string = randomUUID()): Promise<ThreadInfo> {
    threadKey(threadId);
    turnNumber(turn);
    threadKey(newId, "newId");
    return this.db.transaction(async (tx) => {
      const src = await this.existing(tx, threadId);
      const firstSeq = num(src.first_seq);
      keptTurn(src, turn, `cannot fork at ${turn}`, (kept) => `fork at ${kept} or later`);
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

  // A thread's settings are the JSON text the server gave, kept and given back as it is (the
  // server reads and checks it).
  async threadSettings(threadId: string): Promise<string | null> {
    threadKey(threadId);
    return optStr((await first(this.db, "SELECT settings FROM threads WHERE id = ?", [threadId]))?.settings);
  }

  async setThreadSettings(threadId: string, settings: string | null): Promise<void> {
    threadKey(threadId);
    checkSettingsText(settings);
    if (settings === null) {
      await this.db.run("UPDATE threads SET settings = NULL WHERE id = ?", [threadId]);
      return;
    }
    // A thread given settings before its first message is made now, as a thread with no turn
    // (the other columns' defaults are a new thread's), in the same statement.
    const now = this.now();
    await this.db.run(
      `INSERT INTO threads (id, created_at, updated_at, settings) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET settings = excluded.settings`,
      [threadId, now, now, settings],
    );
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
          const row = await this.row(tx, String(id), this.db.lockRow);
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
    const row = await this.row(tx, threadId, this.db.lockRow);
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

  async ping(): Promise<void> {
    // A write that changes nothing, committed and synced as a turn's commit is: a store that
    // answers reads but cannot write (a full disk, a damaged or read-only file) is not ready.
    try {
      await this.db.transaction((tx) =>
        tx.run("UPDATE schema_migrations SET applied_at = applied_at WHERE version = ?", [SCHEMA_VERSION]),
      );
      await this.db.check();
    } catch (err) {
      // In words fit for an unauthenticated probe: what is wrong, never where the store is.
      const code = String((err as { code?: unknown } | null)?.code ?? "");
      throw new StoreError(
        "unavailable",
        err instanceof StoreError && err.code === "unavailable"
          ? "the database cannot be reached"
          : (this.db.unwritable(code) ?? "the database failed to write"),
      );
    }
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}

/** What `decide` finds when nothing stands in the way of taking the thread. */
export const FREE = Symbol("free");

/**
 * How a take ended: the message's turn or the thread taken (with its memory), a place in the
 * queue, the thread taken on this row (its memory still to read), or FREE.
 */
export type Decided = TakenThread | { ticket: number } | { taken: Lease; row: Row } | typeof FREE;

/**
 * Refuses (`bad_request`) a turn the thread's row does not keep: past its head (`missing` says
 * so), or pruned (`pruned` names the first kept).
 */
function keptTurn(row: Row, turn: number, missing: string, pruned: (kept: number) => string): void {
  const version = num(row.version);
  const firstSeq = num(row.first_seq);
  const id = String(row.id);
  if (!Number.isInteger(turn) || turn < 0 || turn > version)
    throw new StoreError("bad_request", `thread ${id} has turns 0 to ${version}; ${missing}`);
  if (turn > 0 && turn < firstSeq - 1)
    throw new StoreError("bad_request", `thread ${id}'s turns before ${firstSeq} were pruned; ${pruned(firstSeq - 1)}`);
}

function unknownThread(id: string, where: string): StoreError {
  return new StoreError("unknown_thread", `no thread '${id}' in ${where}`);
}

/** A transaction found that a concurrent one changed what it read: rolled back, it runs again. */
const CONTENDED = new Error("contended");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
