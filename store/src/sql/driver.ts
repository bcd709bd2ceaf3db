import { checkListOptions } from "../arguments.js";

/**
 * The little of a database the store needs, so its logic (sql-store.ts) is written once for both
 * SQLite and Postgres. SQL is written with `?` placeholders and portable types (TEXT, INTEGER,
 * BIGINT); each driver adapts it.
 */
export type Row = Record<string, unknown>;

export interface Sql {
  all(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a statement; the number of rows it changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
}

export interface SqlDriver extends Sql {
  /** The column type of bytes (deflated JSON): SQLite BLOB, Postgres BYTEA. */
  readonly bytesType: string;
  /**
   * What a transaction's read adds to lock the row it will write: Postgres FOR UPDATE; nothing on
   * SQLite, whose BEGIN IMMEDIATE already holds the file.
   */
  readonly lockRow: string;
  /** Why the database refused a write, by its error code, in words for a readiness probe; undefined: not one it knows. */
  unwritable(code: string): string | undefined;
  /**
   * Runs `work` in one write transaction (SQLite: BEGIN IMMEDIATE, so two writers queue for the
   * lock instead of failing half-way; Postgres: BEGIN on a client of its own). It commits when
   * `work` returns and rolls back when it throws. Never held across a model call: the store
   * takes a lease instead.
   */
  transaction<T>(work: (tx: Sql) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Writes of leases (renewals, releases), which need not outlive a crash of the machine (a lease
   * lapses anyway) and must not wait behind the load whose leases they keep: SQLite, each in a
   * transaction that does not wait for the disk (a statement on its own would); Postgres, each
   * on connections kept for them, not queued for the pool's behind every turn's transactions.
   */
  readonly leases: Sql;
  /**
   * Runs `work`'s statements on one connection, outside a transaction, once one is free (Postgres:
   * a client of the pool's; SQLite: in the queue's order). A time read in `work` is read when its
   * statements can run, not before a wait for a connection: a lease taken there with that time
   * is not born part-lapsed by a busy pool.
   */
  session<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  /** Like `transaction`, serialised with every other process migrating the same database. */
  migrationTransaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Wakes the watchers of `key` once the transaction `tx` commits: in every process (Postgres
   * NOTIFY, sent at the commit), or in this one (SQLite cannot reach another process: its
   * watchers there poll).
   */
  notify(tx: Sql, key: string): Promise<void>;
  /**
   * What a readiness probe checks beyond a write: SQLite opens the file afresh and reads its
   * schema (the store's own connection may hold every page it needs in its cache and the WAL, and
   * so not see a damaged or vanished file); Postgres, nothing more.
   */
  check(): Promise<void>;
  /** Calls `listener` on each `notify(key)`, and every `pollMs` in case one was missed or cannot reach it. */
  watch(key: string, listener: () => void, pollMs: number): () => void;
  close(): Promise<void>;
}

export interface TransactionOptions {
  /**
   * false: the commit does not wait for the disk (SQLite: synchronous NORMAL for this transaction,
   * whose WAL the next durable commit syncs; Postgres: synchronous_commit off). A crash of the
   * machine, not of the process, may lose it, never a transaction before it nor make the database
   * inconsistent. For what can be lost that way: a run's events, not a turn.
   */
  durable?: boolean;
}

export async function first(sql: Sql, text: string, params?: unknown[]): Promise<Row | undefined> {
  return (await sql.all(text, params))[0];
}

/** Numbers come back from Postgres BIGINT columns as strings. */
export const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
export const optNum = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
export const optStr = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** A parameter as both drivers bind it: booleans as 0 or 1, undefined as NULL. */
export const bindable = (v: unknown) => (typeof v === "boolean" ? (v ? 1 : 0) : v === undefined ? null : v);

/**
 * A listing's `agent` filter and `limit` (below 0: none), checked, as SQL to append (`where`, with
 * the condition given for the agent; `limit`, after its ORDER BY) and their values in order.
 */
export function listing(options: { limit?: number; agent?: string }, agentCondition: string) {
  checkListOptions(options);
  const limit = options.limit ?? -1;
  const agent = options.agent === undefined ? [] : [options.agent];
  return {
    where: agent.length > 0 ? ` WHERE ${agentCondition}` : "",
    limit: limit >= 0 ? " LIMIT ?" : "",
    params: [...agent, ...(limit >= 0 ? [limit] : [])],
  };
}
