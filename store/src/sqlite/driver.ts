import { mkdirSync, statfsSync } from "node:fs";
import { dirname } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { bindable, type Row, type Sql, type SqlDriver, type TransactionOptions } from "../sql/driver.js";
import { Watchers } from "../sql/watchers.js";
import { loadDriver } from "../sql/load-driver.js";

// better-sqlite3 is a native CommonJS module, loaded only when a SQLite store is opened.

/** Below this much free space on its disk, a store is not ready: a turn's commit may not fit. */
const MIN_FREE_BYTES = 1024 * 1024;

/** SQLite's primary result codes (better-sqlite3 names them, SQLITE_IOERR_WRITE an extended one of SQLITE_IOERR). */
const UNWRITABLE = new Map(
  Object.entries({
    SQLITE_FULL: "the disk is full",
    SQLITE_CORRUPT: "the database file is damaged",
    SQLITE_NOTADB: "the database file is damaged (it is not a SQLite database)",
    SQLITE_READONLY: "the database is read-only",
    SQLITE_CANTOPEN: "the database file cannot be opened",
    SQLITE_BUSY: "the database is locked by another process",
    SQLITE_IOERR: "the disk failed to read or write",
    SQLITE_PERM: "the database file may not be written",
  }),
);

/** How long a writer waits for another process's write lock before SQLite gives up. */
const BUSY_TIMEOUT_MS = 10_000;

/**
 * One queue per database file in this process. better-sqlite3 is synchronous while the store's
 * logic is async (so that Postgres fits the same code): without the queue, a second connection of
 * the same process could start BEGIN IMMEDIATE while the first holds the lock between two awaits,
 * and block the one thread that could release it until the busy timeout.
 */
let memoryDatabases = 0;
const queues = new Map<string, Shared>();

/** What the stores of one database file in this process share: the queue, and who watches what. */
interface Shared {
  tail: Promise<unknown>;
  /** The queue's last item when it is a batch of transactions not yet started, which the next may join. */
  open: Batch | null;
  users: number;
  watchers: Watchers;
}

/**
 * A SQLite database through better-sqlite3: one connection per store, its statements and
 * transactions queued so that one transaction's statements never interleave with another caller's
 * (a lease renewal timer firing during a commit, say). Other processes wait on SQLite's lock.
 */
export class SqliteDriver implements SqlDriver {
  readonly bytesType = "BLOB";
  readonly lockRow = "";
  unwritable(code: string): string | undefined {
    return UNWRITABLE.get(code) ?? UNWRITABLE.get(code.split("_").slice(0, 2).join("_"));
  }
  private readonly db: BetterSqlite3.Database;
  private readonly queue: Shared;
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  constructor(readonly path: string) {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    const key = path === ":memory:" ? `:memory:${++memoryDatabases}` : path; // each in-memory database is its own
    this.queue = queues.get(key) ?? { tail: Promise.resolve(), open: null, users: 0, watchers: new Watchers() };
    queues.set(key, this.queue);
    this.queue.users++;
    this.leaveQueue = () => {
      if (--this.queue.users === 0) queues.delete(key);
    };
    const Database = loadDriver<typeof BetterSqlite3>("better-sqlite3", "12", "SQLite");
    this.db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // WAL: readers never wait for the writer; FULL: a committed turn survives a power cut too.
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = FULL");
    this.db.pragma("foreign_keys = ON");
    this.fixed = fixedStatements(this.db);
  }

  private readonly fixed: ReturnType<typeof fixedStatements>;

  private statement(sql: string): BetterSqlite3.Statement {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  private readonly direct: Sql = {
    all: async (sql, params = []) => {
      const s = this.statement(sql);
      if (s.reader) return s.all(...params.map(bindable)) as Row[];
      s.run(...params.map(bindable));
      return [];
    },
    run: async (sql, params = []) => this.statement(sql).run(...params.map(bindable)).changes,
  };

  private readonly leaveQueue: () => void;

  private serial<T>(work: () => Promise<T>): Promise<T> {
    // Whatever is queued now comes after the open batch: nothing more may join it.
    this.queue.open = null;
    const result = this.queue.tail.then(yieldToIo).then(work);
    this.queue.tail = result.catch(() => undefined);
    return result;
  }

  all(sql: string, params?: unknown[]): Promise<Row[]> {
    return this.serial(() => this.direct.all(sql, params));
  }

  run(sql: string, params?: unknown[]): Promise<number> {
    return this.serial(() => this.direct.run(sql, params));
  }

  session<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    return this.serial(() => work(this.direct));
  }

  readonly leases: Sql = {
    all: (sql, params) => this.transaction((tx) => tx.all(sql, params), { durable: false }),
    run: (sql, params) => this.transaction((tx) => tx.run(sql, params), { durable: false }),
  };

  /**
   * Transactions asked for one after another, with nothing else queued between them, commit
   * together (group commit): one BEGIN, each in a savepoint of its own (one that throws is rolled
   * back alone and rejects alone), one COMMIT, so one wait for the disk for all of them. Under load
   * a server's turns end in bursts, and each durable commit blocks this thread for a sync of the
   * WAL; batched, the queue's order is still the order they were asked for.
   */
  transaction<T>(work: (tx: Sql) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const durable = options.durable !== false;
    const open = this.queue.open;
    return new Promise<T>((resolve, reject) => {
      const entry = { work, resolve, reject } as Pending;
      if (open && open.driver === this && open.durable === durable) {
        open.entries.push(entry);
        return;
      }
      const batch: Batch = { driver: this, durable, entries: [entry] };
      this.serial(() => this.runBatch(batch)).catch(() => {});
      // serial() closed the open batch: this one is now the queue's last item, open to others.
      this.queue.open = batch;
    });
  }

  private async runBatch(batch: Batch): Promise<void> {
    if (this.queue.open === batch) this.queue.open = null;
    const { entries } = batch;
    const alone = entries.length === 1;
    const settled: { entry: Pending; value: unknown }[] = [];
    try {
      // better-sqlite3 waits for the disk in this thread, the process's only one: a commit that
      // need not survive a power cut does not (the next durable commit syncs the WAL it is in).
      if (!batch.durable) this.fixed.syncNormal.run();
      // IMMEDIATE takes the write lock first (waiting up to the busy timeout), so a transaction
      // that read and then writes never fails with SQLITE_BUSY half-way.
      this.fixed.begin.run();
      for (const entry of entries) {
        if (!alone) this.fixed.savepoint.run();
        try {
          const value = await entry.work(this.direct);
          if (!alone) this.fixed.release.run();
          settled.push({ entry, value });
        } catch (err) {
          // SQLite ends the whole transaction itself on some errors (a full disk, an I/O error):
          // what the batch wrote so far is gone, and its callers learn why.
          if (!this.db.inTransaction) throw err;
          if (!alone) {
            this.fixed.rollbackTo.run();
            this.fixed.release.run();
          } else this.fixed.rollback.run();
          entry.reject(err);
        }
      }
      if (this.db.inTransaction) this.fixed.commit.run();
      for (const { entry, value } of settled) entry.resolve(value);
    } catch (err) {
      if (this.db.inTransaction) this.fixed.rollback.run();
      // Nothing of the batch was committed (an entry already rejected keeps its own error).
      for (const entry of entries) entry.reject(err);
    } finally {
      if (!batch.durable) this.fixed.syncFull.run();
    }
  }

  // BEGIN IMMEDIATE is already exclusive among writers of the file.
  migrationTransaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.transaction(work);
  }

  async check(): Promise<void> {
    if (this.path === ":memory:") return;
    // A write that fits in the WAL's space already allocated succeeds on a full disk; the next
    // turn's commit, which grows the file, would not.
    const fs = statfsSync(dirname(this.path));
    if (fs.bavail * fs.bsize < MIN_FREE_BYTES)
      throw Object.assign(new Error(`${fs.bavail * fs.bsize} bytes free`), { code: "SQLITE_FULL" });
    const Database = loadDriver<typeof BetterSqlite3>("better-sqlite3", "12", "SQLite");
    const fresh = new Database(this.path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    try {
      fresh.prepare("SELECT COUNT(*) AS n FROM sqlite_master").get();
    } finally {
      fresh.close();
    }
  }

  // setImmediate: after the COMMIT that follows the transaction's work (a rolled-back one wakes
  // its watchers for nothing, which is harmless: they read and find no change).
  async notify(_tx: Sql, key: string): Promise<void> {
    setImmediate(() => this.queue.watchers.wake(key));
  }

  watch(key: string, listener: () => void, pollMs: number): () => void {
    return this.queue.watchers.add(key, listener, pollMs);
  }

  async close(): Promise<void> {
    await this.serial(async () => this.db.close());
    this.leaveQueue();
  }
}

// better-sqlite3 answers at once, so a queue of statements would otherwise run as one stretch of
// microtasks: no socket read, no timer, no new request until the whole queue is done. One
// setImmediate per statement lets the process's other work in between (docs/serving.md#figures).
const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Statements run for every transaction, prepared once (exec and pragma() parse their SQL each time). */
function fixedStatements(db: BetterSqlite3.Database) {
  return {
    begin: db.prepare("BEGIN IMMEDIATE"),
    commit: db.prepare("COMMIT"),
    rollback: db.prepare("ROLLBACK"),
    savepoint: db.prepare("SAVEPOINT batched"),
    release: db.prepare("RELEASE batched"),
    rollbackTo: db.prepare("ROLLBACK TO batched"),
    syncNormal: db.prepare("PRAGMA synchronous = NORMAL"),
    syncFull: db.prepare("PRAGMA synchronous = FULL"),
  };
}

/** A transaction waiting in a batch. */
interface Pending {
  work: (tx: Sql) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** Transactions that commit together: all durable, or all not. */
interface Batch {
  driver: SqliteDriver;
  durable: boolean;
  entries: Pending[];
}
