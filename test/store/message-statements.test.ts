// What a message's turn costs the database, counted through the driver: one transaction takes the
// thread (its row read once, with the message id's turn and the waiters; no wait for the disk; on
// Postgres one statement on its own), one commits the turn with its run's events (on Postgres one
// statement on its own); the memory this process committed is not read back. On SQLite and on Postgres.
import { describe, expect, it } from "vitest";
import { acquireTurn, runTurn } from "@autograms/store";
import { EchoModel, echoAgent } from "@autograms/store/testing";
import { bothStores } from "./support/both-stores.js";
import { recordStatements, type Driver } from "./support/statements.js";
import { prepared } from "../../store/src/postgres/driver.js";
import { THREAD_ROW } from "../../store/src/sql/rows.js";

/** On Postgres, each statement sent under a name: prepared once per connection, not parsed and planned for every message. */
const expectNamed = (statements: { sql: string }[]) => {
  for (const { sql } of statements) expect(prepared(sql).name, sql).toBeDefined();
};

const stores = bothStores("autograms-statements-");

for (const [name, open] of Object.entries(stores)) {
  describe(`a message's turn on ${name}`, () => {
    it("takes the thread in one transaction (Postgres: one statement) and commits the turn with its run's events in another", async () => {
      const store = await open();
      try {
        const agent = echoAgent(new EchoModel());
        await runTurn(store, agent, "s", null);
        await runTurn(store, agent, "s", "one", { messageId: "m-1" });
        const recorded = recordStatements(store);
        const { held } = await acquireTurn(store, "s", "two", {
          messageId: "m-2",
          policy: "enqueue",
          agent: agent.graph.agent,
          sameMessage: "refuse",
        });
        const played = await agent.reply("two", held!.memory!);
        const lease = held!.lease;
        const events = [1, 2, 3].map((seq) => ({ seq, event: { type: "step", seq } }));
        await held!.commit({
          ...played,
          trace: [],
          startedAt: Date.now(),
          run: { runId: "r", events, end: "finished", begin: { id: "r", lease, user: "two" } },
        });
        const { statements, transactions } = recorded;
        const alone = statements.filter((s) => s.tx === null).map((s) => s.sql);
        let take: string[];
        let commit: string[];
        if (name === "Postgres") {
          // Taking: one statement on its own (one round trip), which reads the row, the waiters and
          // the message id's turn, and writes the lease; committing (no snapshot due): one more
          // statement on its own, atomic as it is, no BEGIN and COMMIT around it.
          expect(transactions).toEqual([]);
          expect(alone).toHaveLength(2);
          take = alone.slice(0, 1);
          commit = alone.slice(1);
          expect(take[0]).toMatch(/UPDATE threads SET lease_token/);
          expectNamed(statements);
        } else {
          // Taking: one transaction that does not wait for the disk, the row read once (with the
          // waiters and the message id's turn), then the lease; committing: one that waits.
          expect(transactions).toEqual([{ durable: false }, { durable: true }]);
          expect(alone).toEqual([]);
          [take, commit] = [0, 1].map((tx) => statements.filter((s) => s.tx === tx).map((s) => s.sql)) as [
            string[],
            string[],
          ];
          expect(take).toHaveLength(2);
          expect(take[1]).toMatch(/^UPDATE threads SET version = \?, lease_token/);
        }
        expect(take[0]).toMatch(/FROM threads WHERE id = \?/);
        expect(take[0]).toMatch(/message_id = \?/);
        expect(take[0]).toMatch(/FROM waiters/);
        // Committing: the lease checked on the row once, the turn, the thread, the run's record and
        // events; on Postgres all in one statement (one round trip).
        if (name === "Postgres") expect(commit).toHaveLength(1);
        else expect(commit.filter((s) => /FROM threads/.test(s))).toHaveLength(1);
        for (const written of [/UPDATE threads SET version/, /INSERT INTO turns/, /INSERT INTO run_events/])
          expect(commit.some((s) => written.test(s))).toBe(true);
        // The memory this process committed is the next turn's: no snapshot or delta read back.
        expect(statements.some((s) => /FROM snapshots|SELECT delta/.test(s.sql))).toBe(false);
        expect(await store.run("r")).toMatchObject({ status: "finished", lastSeq: 3, turn: 3 });
        expect((await store.turns("s")).map((t) => t.messageId)).toEqual([null, "m-1", "m-2"]);
      } finally {
        await store.close();
      }
    });

    it("reads no memory when it takes a thread that has had no turn", async () => {
      const store = await open();
      try {
        const recorded = recordStatements(store);
        const { held } = await acquireTurn(store, "new", "hello", { messageId: "m-1", policy: "enqueue" });
        expect(held!.memory).toBeNull();
        expect(held!.lease.version).toBe(0);
        expect(recorded.statements.filter((s) => /FROM snapshots|SELECT delta/.test(s.sql))).toEqual([]);
        if (name === "Postgres") {
          // The take that finds no thread, then the thread made with its lease: two statements on
          // their own, no transaction.
          expect(recorded.transactions).toEqual([]);
          expect(recorded.statements.map((s) => s.tx)).toEqual([null, null]);
          expect(recorded.statements[1]!.sql).toMatch(/INSERT INTO threads .* ON CONFLICT \(id\) DO NOTHING/s);
          expectNamed(recorded.statements);
        }
        await held!.release();
      } finally {
        await store.close();
      }
    });

    it("reads a thread's row by its columns' names, every column of the table", async () => {
      const store = await open();
      try {
        const db = (store as unknown as { db: Driver }).db;
        const columns = (
          name === "Postgres"
            ? await db.all(
                "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'threads'",
              )
            : await db.all("SELECT name FROM pragma_table_info('threads')")
        ).map((c) => String(c.name));
        expect(
          THREAD_ROW.split(", ")
            .map((c) => c.replace("threads.", ""))
            .sort(),
        ).toEqual(columns.sort());
      } finally {
        await store.close();
      }
    });
  });
}

describe("a program's turn on Postgres (runTurn: no run)", () => {
  it("commits in one statement on its own, which also ends a run its lease recorded apart", async () => {
    const store = await stores.Postgres();
    try {
      const agent = echoAgent(new EchoModel());
      await runTurn(store, agent, "p", null);
      await runTurn(store, agent, "p", "one");
      const recorded = recordStatements(store);
      await runTurn(store, agent, "p", "two", { messageId: "m-2" });
      // The take and the commit: two statements, no transaction.
      expect(recorded.transactions).toEqual([]);
      expect(recorded.statements.map((s) => s.tx)).toEqual([null, null]);
      expectNamed(recorded.statements);
      // A run recorded apart on the lease (the caller wrote its events), and a commit that carries none.
      const { held } = await acquireTurn(store, "p", "three", { messageId: "m-3" });
      const lease = held!.lease;
      const event = { seq: 1, event: { type: "step", seq: 1 } };
      expect(await store.appendRunEvents("apart", [event], undefined, { id: "apart", lease, user: "three" })).toBe(
        true,
      );
      recorded.clear();
      const played = await agent.reply("three", held!.memory!);
      await held!.commit({ ...played, trace: [], startedAt: Date.now() });
      expect(recorded.transactions).toEqual([]);
      expect(recorded.statements).toHaveLength(1);
      expect(await store.run("apart")).toMatchObject({ status: "committed" });
      expect((await store.turns("p")).map((t) => t.messageId)).toEqual([null, null, "m-2", "m-3"]);
    } finally {
      await store.close();
    }
  });
});

describe("the names statements are prepared under on Postgres", () => {
  it("names a statement unless it returns its table's columns as *", () => {
    expect(prepared("SELECT id FROM threads WHERE id = ?")).toMatchObject({
      text: "SELECT id FROM threads WHERE id = $1",
    });
    expect(prepared("SELECT id FROM threads WHERE id = ?").name).toBeDefined();
    expect(
      prepared("SELECT (SELECT COUNT(*) FROM t) AS n, 1 / ((SELECT COUNT(*) FROM h) * (2)) AS g").name,
    ).toBeDefined();
    for (const wildcard of [
      "SELECT * FROM turns WHERE thread_id = ?",
      "SELECT r.*, t.lease_token FROM runs r JOIN threads t ON t.id = r.thread_id",
      "UPDATE runs SET status = ? RETURNING *",
      "SELECT id, * FROM threads",
    ])
      expect(prepared(wildcard).name, wildcard).toBeUndefined();
  });
});

describe("a turn's commit on Postgres when it keeps a snapshot", () => {
  it("keeps a snapshot where one falls due, each turn and each run's events once", async () => {
    const store = await stores.Postgres({ snapshotEvery: 2 });
    try {
      const agent = echoAgent(new EchoModel());
      for (const text of ["one", "two", "three", "four", "five"]) {
        const { held } = await acquireTurn(store, "s", text, { messageId: text, agent: agent.graph.agent });
        const played = await agent.reply(text, held!.memory ?? undefined);
        const runId = `r-${text}`;
        const events = [{ seq: 1, event: { type: "step", text } }];
        await held!.commit({
          ...played,
          trace: [],
          startedAt: Date.now(),
          run: { runId, events, end: "finished", begin: { id: runId, lease: held!.lease, user: text } },
        });
      }
      // Turn 1, the thread's first, keeps one (always due); turns 3 and 5 fall due every 2.
      const db = (store as unknown as { db: Driver }).db;
      const snapshots = await db.all("SELECT seq FROM snapshots WHERE thread_id = ? ORDER BY seq", ["s"]);
      expect(snapshots.map((r) => Number(r.seq))).toEqual([1, 3, 5]);
      for (const text of ["one", "two", "three", "four", "five"]) {
        expect((await store.runEvents(`r-${text}`)).map((e) => e.event)).toEqual([{ type: "step", text }]);
        expect(await store.run(`r-${text}`)).toMatchObject({ status: "finished" });
      }
      expect((await store.turns("s")).map((t) => t.user)).toEqual(["one", "two", "three", "four", "five"]);
      expect((await store.load("s")).memory).toEqual((await store.memoryAt("s", 5))!);
    } finally {
      await store.close();
    }
  });
});
