import { createRequire } from "node:module";
import type * as Pg from "pg";
import type { Row, Sql, SqlDriver } from "../sql/driver.js";

// pg is CommonJS, loaded only when a Postgres store is opened.
const require = createRequire(import.meta.url);

/** Any fixed number: every process migrating the same database takes this advisory lock. */
const MIGRATION_LOCK = 0x6175746f; // "auto"

/** `?` placeholders (the store's portable SQL) become `$1, $2, ...`. */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

const toPg = (v: unknown) => (typeof v === "boolean" ? (v ? 1 : 0) : v === undefined ? null : v);

function over(client: Pg.Pool | Pg.PoolClient): Sql {
  return {
    all: async (sql, params = []) => (await client.query(numbered(sql), params.map(toPg))).rows as Row[],
    run: async (sql, params = []) => (await client.query(numbered(sql), params.map(toPg))).rowCount ?? 0,
  };
}

export class PostgresDriver implements SqlDriver {
  readonly dialect = "postgres" as const;
  private readonly pool: Pg.Pool;
  private readonly direct: Sql;

  constructor(connectionString: string) {
    const pg = require("pg") as typeof Pg;
    this.pool = new pg.Pool({ connectionString, max: 4 });
    // An idle client that loses its server must not crash the process; the next query reports it.
    this.pool.on("error", () => {});
    this.direct = over(this.pool);
  }

  all(sql: string, params?: unknown[]): Promise<Row[]> {
    return this.direct.all(sql, params);
  }

  run(sql: string, params?: unknown[]): Promise<number> {
    return this.direct.run(sql, params);
  }

  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.inTransaction(work, false);
  }

  migrationTransaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.inTransaction(work, true);
  }

  private async inTransaction<T>(work: (tx: Sql) => Promise<T>, migration: boolean): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      // Held until COMMIT: a second process starting at the same time waits here, then finds the
      // schema migrated.
      if (migration) await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      const value = await work(over(client));
      await client.query("COMMIT");
      return value;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
