/**
 * The store suite's threads: migrations, a conversation's history and memory, titles, forks,
 * exports, deletion and pruning, and the arguments every call checks (ThreadStore).
 */
import { AgentError, storedTrace, type TraceEvent } from "@autograms/runtime";
import { SCHEMA_VERSION } from "../sql/migrations.js";
import { checkThreads } from "../turns/check-threads.js";
import { acquireTurn } from "../turns/held-turn.js";
import { runTurn } from "../turns/run-turn.js";
import { packTurn } from "../packed-turn.js";
import type { TurnRecord } from "../types.js";
import { EchoModel, echoAgent, echoGraph } from "./echo-agent.js";
import { type Backend, withStore, openInAnotherProcess, count, talk } from "./suite-support.js";
import type { TestApi } from "./test-api.js";

/** Registers the threads half of the store suite for the store `backend` opens; it runs alone as well. */
export function threadsSpec(name: string, backend: Backend, api: TestApi): void {
  api.describe(`${name} store: threads`, () => threadsTests(backend, api));
}

/** The threads tests, registered in the describe block the caller is in (storeSuite puts the three concerns in one). */
export function threadsTests(backend: Backend, { it, expect }: TestApi): void {
  it("migrates once, even when several processes open a new database at the same moment", async () => {
    const db = await backend.fresh();
    // Two processes and, in this one, four stores at once.
    const opening = Array.from({ length: 2 }, () => openInAnotherProcess(db.url));
    const stores = await Promise.all([db.open(), db.open(), db.open(), db.open()]);
    await Promise.all(stores.map((s) => s.close()));
    expect(await Promise.all(opening)).toEqual([0, 0]);
    const rows = await db.query("SELECT version FROM schema_migrations ORDER BY version");
    expect(rows.map((r) => Number(r.version))).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
    await (await db.open()).close(); // and opening a migrated database changes nothing
    expect(await db.query("SELECT version FROM schema_migrations")).toHaveLength(SCHEMA_VERSION);
    await db.close();
  }, 120_000); // starting Node processes takes seconds on a busy machine

  it("refuses a database migrated by a newer version", async () => {
    const db = await backend.fresh();
    await (await db.open()).close();
    await db.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)");
    await expect(db.open()).rejects.toMatchObject({
      code: "schema_too_new",
      message: expect.stringMatching(/version 999.*upgrade/),
    });
    await db.close();
  });

  it("keeps a conversation turn by turn: history, memory and replies", () =>
    withStore(backend, async (store) => {
      const replies = await talk(store, "t1", 3);
      expect(replies).toEqual(["Hello! Say something.", "echo: message 1", "echo: message 2", "echo: message 3"]);
      const turns = await store.turns("t1");
      expect(turns.map((t) => [t.seq, t.user, t.reply, t.status])).toEqual([
        [1, null, "Hello! Say something.", "ok"],
        [2, "message 1", "echo: message 1", "ok"],
        [3, "message 2", "echo: message 2", "ok"],
        [4, "message 3", "echo: message 3", "ok"],
      ]);
      expect(turns[1]!.trace.map((e) => e.kind)).toContain("generate");
      expect(turns[1]!.trace.some((e) => "messages" in e)).toBe(false); // prompts are not stored
      const { info, memory } = await store.load("t1");
      expect(info).toMatchObject({ id: "t1", agent: "Echo", version: 4, done: false, running: null, firstSeq: 1 });
      expect(memory!.turn).toBe(4);
      expect(memory!.stack[0]!.vars.count).toBe(2);
      // The memory as it was after an earlier turn.
      expect((await store.memoryAt("t1", 2))!.stack[0]!.vars.count).toBe(0);
      expect(await store.memoryAt("t1", 4)).toEqual(memory);
      expect(await store.memoryAt("t1", 0)).toBeNull();
      await expect(store.memoryAt("t1", 5)).rejects.toMatchObject({ code: "bad_request" });
      await expect(store.memoryAt("nope", 1)).rejects.toMatchObject({ code: "unknown_thread" });
      // The loaded memory continues the conversation exactly as the in-process memory would.
      const direct = await echoAgent().reply("message 4", memory);
      const stored = await runTurn(store, echoAgent(), "t1", "message 4");
      expect(stored.memory).toEqual(direct.memory);
      expect((await store.listThreads()).map((t) => t.id)).toEqual(["t1"]);
      await store.createThread("fresh");
      expect((await store.listThreads({ agent: "Echo" })).map((t) => t.id).sort()).toEqual(["fresh", "t1"]);
      expect((await store.listThreads({ agent: "Other", limit: 5 })).map((t) => t.id)).toEqual(["fresh"]);
    }));

  it("loads a long conversation from one snapshot and the turns after it", () =>
    withStore(
      backend,
      async (store, db) => {
        await talk(store, "long", 12);
        // Another store has not committed this thread: it rebuilds the memory from the rows.
        const other = await db.open({ snapshotEvery: 5 });
        const { memory } = await other.load("long").finally(() => other.close());
        expect(memory!.turn).toBe(13);
        expect(memory).toEqual((await store.load("long")).memory);
        const snapshots = (await db.query("SELECT seq FROM snapshots WHERE thread_id = 'long' ORDER BY seq")).map((r) =>
          Number(r.seq),
        );
        expect(snapshots.length).toBeGreaterThan(0);
        expect(13 - snapshots.at(-1)!).toBeLessThanOrEqual(store.options.snapshotEvery);
      },
      { snapshotEvery: 5 },
    ));

  it("starts a turn from the memory it committed, and from another store's commit when there is one", () =>
    withStore(backend, async (a, db) => {
      const b = await db.open();
      const fresh = async (id: string) => {
        const c = await db.open();
        return (await c.load(id).finally(() => c.close())).memory!;
      };
      try {
        await talk(a, "t", 1);
        const mine = (await runTurn(a, echoAgent(), "t", "from a")).memory!;
        // The same object the commit was given: neither rebuilt nor checked again.
        expect((await a.load("t")).memory).toBe(mine);
        expect(await a.memoryAt("t", 3)).toBe(mine);
        expect((await b.load("t")).memory).not.toBe(mine);
        expect((await b.load("t")).memory).toEqual(mine);

        // Another store commits in between: the next turn here starts from its memory.
        await runTurn(b, echoAgent(), "t", "from b");
        expect((await a.load("t")).memory!.turn).toBe(4);
        const next = (await runTurn(a, echoAgent(), "t", "from a again")).memory!;
        expect(next.turn).toBe(5);
        const stored = await fresh("t");
        expect(stored).toEqual(next);
        expect(JSON.stringify(stored)).toContain("from b");

        // The thread deleted and made again elsewhere, up to the same turn: not the memory kept here.
        await runTurn(a, echoAgent(), "d", null);
        await runTurn(a, echoAgent(), "d", "first life");
        expect(await b.deleteThread("d")).toBe(true);
        await runTurn(b, echoAgent(), "d", null);
        await runTurn(b, echoAgent(), "d", "second life");
        const reborn = (await a.load("d")).memory!;
        expect(JSON.stringify(reborn)).toContain("second life");
        expect(JSON.stringify(reborn)).not.toContain("first life");
        expect((await runTurn(a, echoAgent(), "d", "and on")).memory).toEqual(await fresh("d"));

        // Another store's interrupt adds a turn without changing the memory: the kept one serves.
        const { held } = await acquireTurn(a, "t", "slow", { messageId: "slow" });
        await acquireTurn(b, "t", "stopping it", { policy: "interrupt" }).then((r) => r.held!.release());
        await held!.release();
        expect((await a.thread("t"))!.version).toBe(6);
        expect((await a.load("t")).memory).toBe(next);
        expect(next).toEqual(await fresh("t"));
      } finally {
        await b.close();
      }
    }));

  it("commits a turn given packed where it was played (packTurn) as it commits one given as objects", () =>
    withStore(
      backend,
      async (store, db) => {
        const agent = echoAgent();
        const packedTurn = async (id: string, text: string | null) => {
          const { held } = await acquireTurn(store, id, text);
          const events: TraceEvent[] = [];
          const result = await agent.reply(text ?? "", held!.memory ?? undefined, { trace: (e) => events.push(e) });
          const packed = packTurn(storedTrace(events), result.delta);
          return held!.commit({ reply: result.reply, memory: result.memory, packed, startedAt: Date.now() });
        };
        for (const text of [null, "message 1", "message 2", "message 3", "message 4"]) {
          const record = await packedTurn("packed", text);
          await runTurn(store, agent, "objects", text);
          // Its record reads the trace and delta from the bytes when asked for them.
          const [stored] = (await store.turns("packed")).slice(-1);
          expect(record.trace).toEqual(stored!.trace);
          expect(record.delta).toEqual(stored!.delta);
        }
        // Everything but how long the model took (`ms`).
        const fields = (t: TurnRecord) => [t.seq, t.user, t.reply, t.trace.map(({ ms: _ms, ...e }) => e), t.delta];
        expect((await store.turns("packed")).map(fields)).toEqual((await store.turns("objects")).map(fields));
        expect((await store.turns("packed"))[2]!.delta).not.toBeNull();
        // Another store rebuilds the memory from the packed rows: snapshots and deltas as ever.
        const other = await db.open({ snapshotEvery: 3 });
        try {
          expect((await other.load("packed")).memory).toEqual((await store.load("objects")).memory);
        } finally {
          await other.close();
        }
        // Packed and as objects at once: refused, nothing written, the lease still the caller's.
        const lease = await store.acquire("packed");
        const packed = packTurn([], null);
        const memory = (await store.load("packed")).memory!;
        const turn = { messageId: null, user: "x", reply: "y", memory, startedAt: 0, packed };
        await expect(store.commit(lease, { ...turn, trace: [] })).rejects.toMatchObject({
          code: "bad_request",
          message: "a turn's trace and delta are given either packed or not, not both",
        });
        expect((await store.commit(lease, turn)).seq).toBe(6);
      },
      { snapshotEvery: 3 },
    ));

  it("keeps no memory with memoryCache 0, and only as many threads as it is given", () =>
    withStore(
      backend,
      async (store) => {
        await talk(store, "one", 1);
        await talk(store, "two", 1);
        const two = (await runTurn(store, echoAgent(), "two", "again")).memory;
        expect((await store.load("two")).memory).toBe(two);
        await runTurn(store, echoAgent(), "three", null);
        // Three threads committed, room for two: the least recently used ("one") was let go.
        const one = (await store.load("one")).memory;
        expect(one!.turn).toBe(2);
        expect((await store.load("one")).memory).not.toBe(one);
        expect((await store.load("two")).memory).toBe(two);
        const none = await (async () => {
          const db = await backend.fresh();
          const s = await db.open({ memoryCache: 0 });
          try {
            const m = (await runTurn(s, echoAgent(), "x", null)).memory;
            return (await s.load("x")).memory === m;
          } finally {
            await s.close();
            await db.close();
          }
        })();
        expect(none).toBe(false);
      },
      { memoryCache: 2 },
    ));

  it("calls a thread by its first user message until it is given a title, and back when the title is taken away", () =>
    withStore(backend, async (store) => {
      expect((await store.createThread("named")).title).toBeNull();
      await talk(store, "named", 2);
      expect((await store.thread("named"))!.title).toBe("message 1");
      expect((await store.setTitle("named", "  Refund for order 12  ")).title).toBe("Refund for order 12");
      expect((await store.listThreads()).find((t) => t.id === "named")!.title).toBe("Refund for order 12");
      // A title survives the turns after it, and is the thread's own (a fork is called by its first message).
      await runTurn(store, echoAgent(), "named", "message 3");
      expect((await store.load("named")).info.title).toBe("Refund for order 12");
      expect((await store.fork("named", 2, "named-fork")).title).toBe("message 1");
      expect((await store.setTitle("named", null)).title).toBe("message 1");
      for (const bad of ["", "   ", "two\nlines", "x".repeat(201)]) {
        await expect(store.setTitle("named", bad)).rejects.toMatchObject({ code: "bad_request" });
      }
      await expect(store.setTitle("nope", "a title")).rejects.toMatchObject({ code: "unknown_thread" });
    }));

  it("forks a thread at turn N: the fork goes on from there, the original is untouched", () =>
    withStore(
      backend,
      async (store) => {
        await talk(store, "src", 4);
        const fork = await store.fork("src", 3, "fork");
        expect(fork).toMatchObject({ id: "fork", version: 3, forkedFrom: { id: "src", turn: 3 } });
        expect((await store.turns("fork")).map((t) => t.user)).toEqual([null, "message 1", "message 2"]);
        const { memory } = await store.load("fork");
        expect(memory!.turn).toBe(3);
        const next = await runTurn(store, echoAgent(), "fork", "another way");
        expect(next.reply).toBe("echo: another way");
        expect((await store.turns("src")).map((t) => t.user)).toEqual([
          null,
          "message 1",
          "message 2",
          "message 3",
          "message 4",
        ]);
        expect((await store.fork("src", 0)).version).toBe(0);
        await expect(store.fork("src", 9)).rejects.toMatchObject({ code: "bad_request" });
        await expect(store.fork("nope", 1)).rejects.toMatchObject({ code: "unknown_thread" });
      },
      { snapshotEvery: 2 },
    ));

  it("exports a thread as JSON: its turns and its memory", () =>
    withStore(backend, async (store) => {
      await talk(store, "exp", 2);
      const exported = JSON.parse(JSON.stringify(await store.exportThread("exp")));
      expect(exported).toMatchObject({ format: "autograms-thread", version: 1, thread: { id: "exp", version: 3 } });
      expect(exported.turns.map((t: { reply: string }) => t.reply)).toEqual([
        "Hello! Say something.",
        "echo: message 1",
        "echo: message 2",
      ]);
      expect(exported.memory.turn).toBe(3);
    }));

  it("deletes a thread with every row of it, and reports an unknown thread", () =>
    withStore(backend, async (store, db) => {
      await talk(store, "del", 3);
      await talk(store, "keep", 1);
      expect(await store.deleteThread("del")).toBe(true);
      for (const table of ["turns", "snapshots", "waiters"]) expect(await count(db, table, "del")).toBe(0);
      expect(await db.query("SELECT id FROM threads WHERE id = 'del'")).toEqual([]);
      expect(await store.deleteThread("del")).toBe(false);
      for (const call of [() => store.load("del"), () => store.turns("del"), () => store.exportThread("del")]) {
        await expect(call()).rejects.toMatchObject({
          code: "unknown_thread",
          message: expect.stringContaining("no thread 'del'"),
        });
      }
      expect((await store.load("keep")).memory!.turn).toBe(2);
    }));

  it("prunes idle threads by age, and trims long histories by count from a snapshot on", () =>
    withStore(
      backend,
      async (store, db) => {
        await talk(store, "old", 2);
        await talk(store, "long", 9);
        await db.query("UPDATE threads SET updated_at = 0 WHERE id = 'old'");
        const before = (await store.load("long")).memory;
        expect(await store.prune({ olderThanMs: 60_000 })).toEqual({ threadsDeleted: 1, turnsDeleted: 3 });
        expect(await store.thread("old")).toBeNull();
        expect(await count(db, "turns", "old")).toBe(0);

        const trimmed = await store.prune({ keepTurns: 3 });
        expect(trimmed.threadsDeleted).toBe(0);
        const info = (await store.thread("long"))!;
        const kept = await store.turns("long");
        expect(kept.length).toBeGreaterThanOrEqual(3);
        expect(kept[0]!.seq).toBe(info.firstSeq);
        expect(info.firstSeq).toBeGreaterThan(1);
        expect(trimmed.turnsDeleted).toBe(info.firstSeq - 1);
        // Still loads the same (from the rows, in a store that did not commit it), forks at any
        // kept turn, and goes on.
        const other = await db.open();
        expect((await other.load("long").finally(() => other.close())).memory).toEqual(before);
        expect((await store.load((await store.fork("long", info.firstSeq)).id)).memory!.turn).toBe(info.firstSeq);
        await expect(store.fork("long", 1)).rejects.toMatchObject({
          code: "bad_request",
          message: expect.stringContaining("pruned"),
        });
        expect((await runTurn(store, echoAgent(), "long", "after pruning")).reply).toBe("echo: after pruning");
      },
      { snapshotEvery: 3 },
    ));

  it("reports a thread whose agent changed where it stands, and leaves it as it was", () =>
    withStore(backend, async (store) => {
      await talk(store, "edited", 1);
      const changed = echoAgent(new EchoModel(), echoGraph({ instruction: "Answer the user in French." }));
      const err = await runTurn(store, changed, "edited", "bonjour").catch((e) => e);
      expect(err).toBeInstanceOf(AgentError);
      expect(err.code).toBe("stale_memory");
      expect(err.message).toContain("'talk'");
      const info = (await store.thread("edited"))!;
      expect(info).toMatchObject({ version: 2, running: null });
      await store.createThread("empty");
      const checks = await checkThreads(store, changed);
      expect(checks.find((c) => c.id === "edited")).toMatchObject({
        resumable: false,
        problem: { code: "stale_memory" },
      });
      expect(checks.find((c) => c.id === "empty")).toEqual({
        id: "empty",
        resumable: true,
        problem: null,
        prompts: [],
      });
      // An edit elsewhere in the graph does not strand it.
      const elsewhere = echoAgent(new EchoModel(), { ...echoGraph(), globals: { count: 0, added: 1 } });
      expect((await runTurn(store, elsewhere, "edited", "still here")).reply).toBe("echo: still here");
    }));

  it("refuses a NUL character in a message or its id, naming the field, and stays usable", () =>
    withStore(backend, async (store) => {
      const agent = echoAgent();
      await expect(runTurn(store, agent, "nul", "a\u0000b")).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringMatching(/^user: contains a NUL/),
      });
      await expect(runTurn(store, agent, "nul", "fine", { messageId: "m\u0000" })).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringMatching(/^messageId: /),
      });
      // Not text at all (a caller in JavaScript): refused naming the field, not failing in a query.
      await expect(
        runTurn(store, agent, "nul", "fine", { messageId: { id: 1 } as unknown as string }),
      ).rejects.toMatchObject({ code: "bad_request", message: "messageId: must be a string or null, not object" });
      await expect(store.turnByMessage("nul", ["m"] as unknown as string)).rejects.toMatchObject({
        code: "bad_request",
        message: "messageId: must be a string, not an array",
      });
      expect((await runTurn(store, agent, "nul", null)).turn.seq).toBe(1);
      expect((await store.thread("nul"))!.running).toBeNull();
    }));

  it("refuses a thread id that is not text, is empty or holds a NUL, naming it, on every call", () =>
    withStore(backend, async (store) => {
      await talk(store, "ok", 1);
      const notText = { id: "ok" } as unknown as string;
      const calls: [string, (id: string) => Promise<unknown>][] = [
        ["id", (id) => store.createThread(id)],
        ["id", (id) => store.thread(id)],
        ["threadId", (id) => store.acquire(id)],
        ["threadId", (id) => store.takeThread(id)],
        ["threadId", (id) => store.load(id)],
        ["threadId", (id) => store.memoryAt(id, 0)],
        ["threadId", (id) => store.turnByMessage(id, "m")],
        ["threadId", (id) => store.turns(id)],
        ["threadId", (id) => store.fork(id, 0)],
        ["newId", (id) => store.fork("ok", 0, id)],
        ["threadId", (id) => store.exportThread(id)],
        ["threadId", (id) => store.setTitle(id, "t")],
        ["threadId", (id) => store.deleteThread(id)],
        ["threadId", (id) => store.latestRun(id)],
        ["threadId", (id) => runTurn(store, echoAgent(), id, "hi")],
      ];
      for (const [field, call] of calls) {
        await expect(call(notText)).rejects.toMatchObject({
          code: "bad_request",
          message: `${field}: must be a string, not object`,
        });
        await expect(call("")).rejects.toMatchObject({
          code: "bad_request",
          message: `${field}: a thread id is not empty`,
        });
        await expect(call("a\u0000b")).rejects.toMatchObject({
          code: "bad_request",
          message: expect.stringMatching(new RegExp(`^${field}: contains a NUL`)),
        });
      }
      // Nothing was written by the refused calls; the thread that was there is as it was.
      expect((await store.listThreads()).map((t) => t.id)).toEqual(["ok"]);
      expect((await store.thread("ok"))!.version).toBe(2);
    }));

  it("refuses arguments of the wrong kind, naming them, and writes nothing for them", () =>
    withStore(backend, async (store) => {
      await talk(store, "ok", 1);
      const odd = <T>(v: unknown) => v as T;
      const refusals: [() => Promise<unknown>, string][] = [
        [() => store.acquire("a", { ttlMs: odd("x") }), "ttlMs: must be a whole number, at least 1, not 'x'"],
        [
          () => store.acquire("a", { policy: odd("bogus") }),
          "policy: must be one of reject, enqueue, interrupt, rollback, not 'bogus'",
        ],
        [() => store.acquire("a", { waitMs: -1 }), "waitMs: must be a whole number, at least 0, not -1"],
        [
          () => store.takeThread("a", { sameMessage: odd("never") }),
          "sameMessage: must be one of wait, refuse, not 'never'",
        ],
        [() => store.takeThread("a", { owner: odd(7) }), "owner: must be a string, not 7"],
        [() => store.takeThread("a", { create: odd("no") }), "create: must be a boolean, not 'no'"],
        [() => store.takeThread("a", { signal: odd({}) }), "signal: must be an AbortSignal, not object"],
        [() => store.listThreads({ limit: odd("5") }), "limit: must be a whole number (below 0: no limit), not '5'"],
        [() => store.listThreads({ limit: 1.5 }), "limit: must be a whole number (below 0: no limit), not 1.5"],
        [() => store.setTitle("ok", odd({ t: 1 })), "title: must be a string or null, not object"],
        [() => store.prune({ olderThanMs: odd("x") }), "olderThanMs: must be a whole number, at least 0, not 'x'"],
        [() => store.prune({ keepTurns: -1 }), "keepTurns: must be a whole number, at least 0, not -1"],
        [() => store.run(odd({})), "runId: must be a string, not object"],
        [() => store.runEvents(odd(1)), "runId: must be a string, not 1"],
        [() => store.memoryAt("ok", odd("1")), "turn: must be a whole number, at least 0, not '1'"],
        [() => store.fork("ok", Number.NaN), "turn: must be a whole number, at least 0, not NaN"],
        [() => store.fork("ok", 1.5), "turn: must be a whole number, at least 0, not 1.5"],
        [() => runTurn(store, odd(null), "a", "hi"), "agent: must be an Agent (new Agent(graph, { model })), not null"],
        [() => runTurn(odd({}), echoAgent(), "a", "hi"), "store: must be a Store (await openStore(url)), not object"],
      ];
      for (const [call, message] of refusals)
        await expect(call()).rejects.toMatchObject({ code: "bad_request", message });
      expect((await store.listThreads()).map((t) => [t.id, t.version, t.title, t.running])).toEqual([
        ["ok", 2, "message 1", null],
      ]);
      expect(await store.listThreads({ limit: -1 })).toHaveLength(1);
    }));

  it("keeps a fork at turn 0 its source's agent's thread", () =>
    withStore(backend, async (store) => {
      await talk(store, "src", 1);
      const fork = await store.fork("src", 0, "src-0");
      expect(fork).toMatchObject({ agent: "Echo", version: 0, forkedFrom: { id: "src", turn: 0 } });
      expect((await store.listThreads({ agent: "Other" })).map((t) => t.id)).not.toContain("src-0");
    }));

  it("makes threads on demand, or refuses an unknown one when asked to", () =>
    withStore(backend, async (store, db) => {
      // Two stores making the same new thread at once: one runs, the other waits its turn.
      const other = await db.open({ pollMs: 10 });
      await Promise.all([store, other].map(async (s) => s.release(await s.acquire("race", { policy: "enqueue" }))));
      await other.close();
      expect((await store.listThreads()).map((t) => t.id)).toEqual(["race"]);
      await expect(store.acquire("ghost", { create: false })).rejects.toMatchObject({ code: "unknown_thread" });
      const made = await store.createThread();
      expect(made.id).toMatch(/^[0-9a-f-]{36}$/);
      await expect(store.createThread(made.id)).rejects.toMatchObject({ code: "bad_request" });
      expect(await store.thread("ghost")).toBeNull();
    }));
}
