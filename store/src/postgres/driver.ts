import type * as Pg from "pg";
import { StoreError } from "../errors.js";
import { bindable, type Row, type Sql, type SqlDriver, type TransactionOptions } from "../sql/driver.js";
import { Watchers } from "../sql/watchers.js";
import { loadDriver } from "../sql/load-driver.js";

// pg is CommonJS, loaded only when a Postgres store is opened.

/** The NOTIFY channel of run events; the payload is the key (a run id). Channels are per database. */
export const RUN_CHANNEL = "autograms_runs";

/** Postgres refusing writes: a standby (25006 read_only_sql_transaction), or out of space (53100 disk_full). */
const UNWRITABLE = new Map(
  Object.entries({
    "25006": "the database is read-only (a standby?)",
    "53100": "the database's disk is full",
  }),
);

/** Any fixed number: every process migrating the same database takes this advisory lock. */
const MIGRATION_LOCK = 0x6175746f; // "auto"

/**
 * The store's statements as numbered and named: a few dozen texts, each sent many times a second.
 * A named statement is parsed and planned once per connection (pg prepares it on first use), and
 * then sent as its name and its values, not its text: the commit's statement is two kilobytes.
 */
const PREPARED = new Map<string, { text: string; name?: string }>();
/** Past this many texts (which should not happen: the store's are few), the rest are numbered each time. */
const PREPARED_MAX = 500;

/**
 * A `*` that stands for columns (`SELECT *`, `RETURNING *`, `t.*`, `, *`), not a product or `COUNT(*)`.
 * A statement that returns `*` is not named: after a migration adds a column (another process of
 * a newer version, in a rolling deploy), Postgres refuses a prepared statement whose result type
 * changed, where a statement parsed afresh returns the new column too. The statements on a turn's
 * path list their columns, so that they are named.
 */
const COLUMNS_WILDCARD = /(?:\bSELECT|\bRETURNING|,|\.)\s*\*/i;

/** `?` placeholders (the store's portable SQL) become `$1, $2, ...`, and the name the statement is prepared under, if any. */
export function prepared(sql: string): { text: string; name?: string } {
  const known = PREPARED.get(sql);
  if (known) return known;
  let n = 0;
  const text = sql.replace(/\?/g, () => `$${++n}`);
  if (PREPARED.size >= PREPARED_MAX) return { text };
  // A name stays with its text for the process's life: a connection keeps what it prepared.
  const statement = COLUMNS_WILDCARD.test(sql) ? { text } : { text, name: `autograms_${PREPARED.size + 1}` };
  PREPARED.set(sql, statement);
  return statement;
}

/**
 * SQLSTATE classes and socket errors that mean the database is out of reach (restarting, shut
 * down, the connection cut), not that a statement was wrong: 08 connection exception, 57P01-03
 * admin / crash shutdown and cannot connect now, 53300 too many connections.
 */
const UNREACHABLE_STATES = /^(08...|57P0[123]|53300)$/;
const UNREACHABLE_ERRNOS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "EAI_AGAIN",
]);

/** A lost database as the store's `unavailable` error (a server answers 503); any other error as it is. */
export function unreachable(err: unknown): unknown {
  if (err instanceof StoreError) return err;
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  const message = typeof e?.message === "string" ? e.message : String(err);
  if (
    UNREACHABLE_STATES.test(code) ||
    UNREACHABLE_ERRNOS.has(code) ||
    /^Connection terminated|^Client has encountered a connection error/.test(message)
  ) {
    return new StoreError(
      "unavailable",
      `the database cannot be reached (${message}); nothing of this request was committed`,
    );
  }
  return err;
}

function over(client: Pg.Pool | Pg.PoolClient): Sql {
  return {
    all: async (sql, params = []) => (await client.query(statement(sql, params)).catch(rethrow)).rows as Row[],
    run: async (sql, params = []) => (await client.query(statement(sql, params)).catch(rethrow)).rowCount ?? 0,
  };
}

const statement = (sql: string, params: unknown[]): Pg.QueryConfig => ({
  ...prepared(sql),
  values: params.map(bindable),
});

const rethrow = (err: unknown): never => {
  throw unreachable(err);
};

export class PostgresDriver implements SqlDriver {
  readonly bytesType = "BYTEA";
  readonly lockRow = " FOR UPDATE";
  readonly unwritable = (code: string) => UNWRITABLE.get(code);
  private readonly pool: Pg.Pool;
  private readonly direct: Sql;
  /**
   * Connections for lease writes, so a renewal never waits in the pool's queue of turns. Two: a
   * release waiting for a row's lock, or a connection gone silent, leaves the other to renewals.
   */
  private readonly leasePool: Pg.Pool;
  readonly leases: Sql;
  private readonly watchers = new Watchers();
  /** The connection that LISTENs, opened with the first watch, kept until close (or lost). */
  private listener: Promise<Pg.Client> | null = null;

  constructor(private readonly connectionString: string) {
    const pg = loadDriver<typeof Pg>("pg", "8", "Postgres");
    this.pool = new pg.Pool({ connectionString, max: 4 });
    // An idle client that loses its server must not crash the process; the next query reports it.
    this.pool.on("error", () => {});
    this.direct = over(this.pool);
    this.leasePool = new pg.Pool({ connectionString, max: 2 });
    this.leasePool.on("error", () => {});
    this.leases = over(this.leasePool);
  }

  all(sql: string, params?: unknown[]): Promise<Row[]> {
    return this.direct.all(sql, params);
  }

  run(sql: string, params?: unknown[]): Promise<number> {
    return this.direct.run(sql, params);
  }

  transaction<T>(work: (tx: Sql) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    return this.inTransaction(work, false, options.durable !== false);
  }

  migrationTransaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.inTransaction(work, true, true);
  }

  private inTransaction<T>(work: (tx: Sql) => Promise<T>, migration: boolean, durable: boolean): Promise<T> {
    return this.onClient(async (client, broken) => {
      // One round trip for both (a query without parameters may hold several statements).
      await client.query(durable ? "BEGIN" : "BEGIN; SET LOCAL synchronous_commit = off");
      try {
        // Held until COMMIT: a second process starting at the same time waits here, then finds the
        // schema migrated.
        if (migration) await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
        const value = await work(over(client));
        await client.query("COMMIT");
        return value;
      } catch (err) {
        if (!broken()) await client.query("ROLLBACK").catch(() => {});
        throw err;
      }
    });
  }

  session<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    return this.onClient((client) => work(over(client)));
  }

  /** `work` on a client of the pool's, given back once it is done (dropped if it broke). */
  private async onClient<T>(work: (client: Pg.PoolClient, broken: () => boolean) => Promise<T>): Promise<T> {
    const client = await this.pool.connect().catch(rethrow);
    // A client taken from the pool has no 'error' listener of the pool's while it is out: without
    // this one, the database going away in the middle of a transaction (or between two of its
    // statements) would be an unhandled 'error' event, which ends the process. The statement
    // under way fails on its own; the client is then dropped rather than given back.
    let broken: Error | undefined;
    const onError = (err: Error) => {
      broken = err;
    };
    client.on("error", onError);
    try {
      return await work(client, () => broken !== undefined);
    } catch (err) {
      throw unreachable(err);
    } finally {
      client.off("error", onError);
      client.release(broken ?? false);
    }
  }

  async check(): Promise<void> {}

  async notify(tx: Sql, key: string): Promise<void> {
    await tx.all("SELECT pg_notify(?, ?)", [RUN_CHANNEL, key]);
  }

  watch(key: string, listener: () => void, pollMs: number): () => void {
    const listening = (this.listener ??= this.listen());
    const stop = this.watchers.add(key, listener, Math.max(pollMs, 1000));
    // What was notified before the LISTEN took effect is read once it has; a watch that cannot
    // LISTEN still polls, and the next watch tries again.
    listening.then(
      () => listener(),
      () => {
        if (this.listener === listening) this.listener = null;
      },
    );
    return stop;
  }

  private async listen(): Promise<Pg.Client> {
    const pg = loadDriver<typeof Pg>("pg", "8", "Postgres");
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on("notification", (n) => {
      if (n.channel === RUN_CHANNEL && n.payload) this.watchers.wake(n.payload);
    });
    // A lost connection is dropped; watchers poll until the next watch listens again.
    client.on("error", () => {
      if (this.listener) this.unlisten();
    });
    await client.connect();
    await client.query(`LISTEN ${RUN_CHANNEL}`);
    return client;
  }

  private unlisten(): void {
    const listening = this.listener;
    this.listener = null;
    listening
      ?.then(
        (c) => c.end(),
        () => {},
      )
      .catch(() => {});
  }

  async close(): Promise<void> {
    this.unlisten();
    await Promise.all([this.pool.end(), this.leasePool.end()]);
  }
}
