// The shared store suite against a real PostgreSQL server (started for this file, stopped after):
// a new database per test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { deflateRawSync } from "node:zlib";
import { openStore, runTurn } from "@autograms/store";
import { EchoModel, echoAgent } from "@autograms/store/testing";
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

describe("Postgres: a message's thread taken while another transaction commits its turn", () => {
  // The statement that takes a thread reads the message's turns as they were when it began; one
  // that waited for the thread's row while another transaction committed that turn must not take
  // the thread for the message again (it would answer it twice): it gives the turn back.
  for (const waitedFor of ["the turn", "a place in the queue"] as const) {
    it(`gives back the turn, or waits its turn, when ${waitedFor} was committed while it waited for the row`, async () => {
      const url = await server.newDatabase();
      const store = await openStore(url, { pollMs: 10 });
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      try {
        await store.release(await store.acquire("t"));
        await other.query("BEGIN");
        if (waitedFor === "the turn") {
          // What a commit writes: the thread's row, and the turn with the message id.
          await other.query("UPDATE threads SET version = 1 WHERE id = 't'");
          await other.query(
            "INSERT INTO turns (thread_id, seq, message_id, user_text, reply, status, delta, trace, started_at, committed_at) VALUES ('t', 1, 'm-1', 'hi', 'hello', 'ok', NULL, $1, 0, 0)",
            [deflateRawSync("[]")],
          );
        } else {
          // What a waiter's place in the queue writes: the row's tail, and the waiter.
          await other.query("UPDATE threads SET queue_tail = 1 WHERE id = 't'");
          await other.query(
            `INSERT INTO waiters (thread_id, ticket, owner, expires) VALUES ('t', 1, 'elsewhere', ${Date.now() + 400})`,
          );
        }
        const taking = store.takeThread("t", { messageId: "m-1", user: "hi", policy: "enqueue" });
        await new Promise((r) => setTimeout(r, 200));
        await other.query("COMMIT");
        const taken = await taking;
        if (waitedFor === "the turn") {
          expect(taken).toMatchObject({ made: { seq: 1, messageId: "m-1", reply: "hello" } });
          expect((await store.thread("t"))!.running).toBeNull();
        } else {
          // Behind the waiter (whose place lapses, unrenewed): the thread is taken once it is gone.
          expect(taken.lease).toMatchObject({ version: 0, messageId: "m-1" });
          expect((await store.thread("t"))!.running).toMatchObject({ messageId: "m-1" });
        }
      } finally {
        await other.end();
        await store.close();
      }
    });
  }
});

describe("Postgres statements prepared once per connection", () => {
  it("are sent by name, and a column added by another process's migration breaks no turn", async () => {
    const url = await server.newDatabase();
    const store = await openStore(url);
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      const agent = echoAgent(new EchoModel());
      for (const text of ["one", "two", "three"]) await runTurn(store, agent, "t", text, { messageId: text });
      // What the store's connections prepared: the commit's statement among them, by name.
      const pool = (store as unknown as { db: { pool: pg.Pool } }).db.pool;
      const client = await pool.connect();
      const named = (await client.query("SELECT name, statement FROM pg_prepared_statements")).rows;
      client.release();
      const prepared = (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection
        .parsedStatements;
      expect(Object.keys(prepared).length).toBeGreaterThan(0);
      expect(named.map((r) => r.name)).toEqual(expect.arrayContaining(Object.keys(prepared)));
      // A newer version, in a rolling deploy, adds a column to the tables the store reads whole.
      await other.query("ALTER TABLE threads ADD COLUMN added_later TEXT");
      await other.query("ALTER TABLE turns ADD COLUMN added_later TEXT");
      await other.query("ALTER TABLE runs ADD COLUMN added_later TEXT");
      for (const text of ["four", "five", "six"]) await runTurn(store, agent, "t", text, { messageId: text });
      expect((await store.turns("t")).map((t) => t.user)).toEqual(["one", "two", "three", "four", "five", "six"]);
    } finally {
      await other.end();
      await store.close();
    }
  });
});
