// What a message's turn costs the database, counted through the driver: one transaction takes the
// thread (its row read once, with the message id's turn and the waiters; no wait for the disk; on
// Postgres one statement on its own), one commits the turn with its run's events (on Postgres one
// statement on its own); the memory this process committed is not read back. On SQLite and on Postgres.
import { describe, expect, it } from "vitest";
import { acquireTurn, runTurn } from "@autograms/store";
import { EchoModel, echoAgent } from "@autograms/store/testing";
import { bothStores } from "./support/both-stores.js";
import { recordStatements } from "./support/statements.js";

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
        await held!.release();
      } finally {
        await store.close();
      }
    });
  });
}

describe("a turn's commit on Postgres when it keeps a snapshot", () => {
  it("tries the statement on its own, which writes nothing, then commits in a transaction with the snapshot; a first turn's snapshot goes in its statement", async () => {
    const store = await stores.Postgres({ snapshotEvery: 2 });
    try {
      const agent = echoAgent(new EchoModel());
      const recorded = recordStatements(store);
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
      // Turn 1, the thread's first, writes its snapshot (always due) in its one statement; turns 3
      // and 5 are due one: their statement writes nothing, and a transaction commits them.
      expect(recorded.transactions.filter((t) => t.durable)).toHaveLength(2);
      const inTransactions = recorded.statements.filter((s) => s.tx !== null).map((s) => s.sql);
      expect(inTransactions.filter((s) => /INSERT INTO snapshots/.test(s))).toHaveLength(2);
      const alone = recorded.statements.filter((s) => s.tx === null).map((s) => s.sql);
      expect(alone.filter((s) => /INSERT INTO snapshots/.test(s))).toHaveLength(1);
      // Each run's events once, each turn once, whichever way its commit went.
      for (const text of ["one", "two", "three", "four", "five"])
        expect((await store.runEvents(`r-${text}`)).map((e) => e.event)).toEqual([{ type: "step", text }]);
      expect((await store.turns("s")).map((t) => t.user)).toEqual(["one", "two", "three", "four", "five"]);
      expect((await store.load("s")).memory).toEqual((await store.memoryAt("s", 5))!);
    } finally {
      await store.close();
    }
  });
});
