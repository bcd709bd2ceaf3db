// What a store sends its database, recorded through its driver (a test hook on the SQL store's
// `db`): each statement, and the transaction it ran in (null: on its own).
import type { Store } from "@autograms/store";

export type Row = Record<string, unknown>;
export interface Sql {
  all(sql: string, params?: unknown[]): Promise<Row[]>;
  run(sql: string, params?: unknown[]): Promise<number>;
}
export interface Driver extends Sql {
  /** Postgres's: the column type of bytes. */
  bytesType: string;
  leases: Sql;
  session<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  transaction<T>(work: (tx: Sql) => Promise<T>, options?: { durable?: boolean }): Promise<T>;
}

export interface Recorded {
  statements: { sql: string; tx: number | null }[];
  /** Each transaction begun, in order: whether its commit waits for the disk. */
  transactions: { durable: boolean }[];
  /** Forgets what was recorded so far. */
  clear(): void;
}

export function recordStatements(store: Store): Recorded {
  const db = (store as unknown as { db: Driver }).db;
  const recorded: Recorded = {
    statements: [],
    transactions: [],
    clear() {
      recorded.statements.length = 0;
      recorded.transactions.length = 0;
    },
  };
  const logged = (sql: Sql, tx: () => number | null): Sql => ({
    all: (text, params) => (recorded.statements.push({ sql: text, tx: tx() }), sql.all(text, params)),
    run: (text, params) => (recorded.statements.push({ sql: text, tx: tx() }), sql.run(text, params)),
  });
  const alone = logged({ all: db.all.bind(db), run: db.run.bind(db) }, () => null);
  db.all = alone.all;
  db.run = alone.run;
  const session = db.session.bind(db);
  db.session = (work) => session((sql) => work(logged(sql, () => null)));
  // Postgres writes leases on a connection of their own, each statement on its own; SQLite's
  // are transactions, recorded below.
  if (db.bytesType === "BYTEA") db.leases = logged(db.leases, () => null);
  const transaction = db.transaction.bind(db);
  db.transaction = (work, options) =>
    transaction((tx) => {
      const n = recorded.transactions.push({ durable: options?.durable !== false }) - 1;
      return work(logged(tx, () => n));
    }, options);
  return recorded;
}
