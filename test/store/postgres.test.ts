// The shared store suite against a real PostgreSQL server (started for this file, stopped after):
// a new database per test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { openStore } from "@autograms/store";
import { storeSuite } from "@autograms/store/testing";
import { startPostgres, type PostgresServer } from "./support/postgres-server.mjs";

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.stop());

storeSuite(
  "Postgres",
  {
    async fresh() {
      const url = await server.newDatabase();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return {
        url,
        open: (options) => openStore(url, options),
        query: async (sql) => (await client.query(sql)).rows,
        close: () => client.end(),
      };
    },
  },
  { describe, it, expect },
);

describe("Postgres run events", () => {
  it("writes a batch in one round trip: the run's record or numbering, its events, the notification", async () => {
    const url = await server.newDatabase();
    const store = await openStore(url);
    const other = await openStore(url);
    try {
      const lease = await store.acquire("t");
      const woken: number[] = [];
      const stop = other.watchRun("r", () => woken.push(Date.now()));
      // Every statement the store sends on its own (pool.query), and every client it takes for a
      // transaction (pool.connect, but for the one pool.query takes itself), where its pool does.
      const pool = (store as unknown as { db: { pool: pg.Pool } }).db.pool;
      let sent = 0;
      let transactions = 0;
      let inQuery = false;
      const query = pool.query.bind(pool);
      const connect = pool.connect.bind(pool);
      pool.query = ((...args: Parameters<pg.Pool["query"]>) => {
        sent++;
        inQuery = true;
        try {
          return query(...args);
        } finally {
          inQuery = false;
        }
      }) as pg.Pool["query"];
      pool.connect = ((...args: Parameters<pg.Pool["connect"]>) => {
        if (!inQuery) transactions++;
        return connect(...args);
      }) as pg.Pool["connect"];
      const events = (from: number, n: number) =>
        Array.from({ length: n }, (_, i) => ({
          seq: from + i,
          event: { type: "step", i: from + i, text: 'a "quoted" \\ line\n' },
        }));
      expect(await store.appendRunEvents("r", events(1, 3), undefined, { id: "r", lease, user: "hi" })).toBe(true);
      expect(sent).toBe(1);
      expect(await store.appendRunEvents("r", events(4, 700), "finished")).toBe(true);
      expect(sent).toBe(2);
      expect(transactions).toBe(0);
      // Numbered wrongly, or after the end: refused, nothing written (and one more read says why).
      expect(await store.appendRunEvents("r", events(704, 1))).toBe(false);
      await expect(store.appendRunEvents("nope", events(1, 1))).rejects.toThrow("no run 'nope'");
      const stored = await other.runEvents("r");
      expect(stored).toEqual(events(1, 703));
      expect(await other.run("r")).toMatchObject({ status: "finished", lastSeq: 703 });
      await expect.poll(() => woken.length).toBeGreaterThanOrEqual(2);
      stop();
    } finally {
      await store.close();
      await other.close();
    }
  });
});
