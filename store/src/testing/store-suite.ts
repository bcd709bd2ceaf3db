/**
 * The one test suite every store implementation passes (SQLite and Postgres run it alike, as
 * LangGraph's checkpointers share their validation suite); a third backend proves itself with
 * it. Each test gets a new, empty database. The test runner's functions are passed in, so the
 * store does not depend on one.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { AgentError, storedTrace, type Agent, type TraceEvent } from "@autograms/runtime";
import { StoreError } from "../errors.js";
import { SCHEMA_VERSION } from "../sql/migrations.js";
import { checkThreads } from "../turns/check-threads.js";
import { acquireTurn } from "../turns/held-turn.js";
import { runTurn } from "../turns/run-turn.js";
import type { Lease, Store, StoreOptions, TakenThread, TurnRecord } from "../types.js";
import { packTurn } from "../packed-turn.js";
import { EchoModel, echoAgent, echoGraph, gate } from "./echo-agent.js";
import type { TestApi } from "./test-api.js";

export interface Backend {
  /** A new empty database: its URL, a way to open stores on it, and raw SQL for checks. */
  fresh(): Promise<Database>;
}

export interface Database {
  url: string;
  open(options?: StoreOptions): Promise<Store>;
  /** Rows of a query, run outside the store (Postgres `$1` placeholders, SQLite `?`: use none). */
  query(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** A store on a fresh database, closed with it after `body`. */
async function withStore(
  backend: Backend,
  body: (store: Store, db: Database) => Promise<void>,
  options?: StoreOptions,
): Promise<void> {
  const db = await backend.fresh();
  const store = await db.open(options);
  try {
    await body(store, db);
  } finally {
    await store.close();
    await db.close();
  }
}

// The package's built entry, for another process to open a store with: from src/testing/ (the
// repository's tests) and from dist/testing/ (an installed package) alike.
const built = fileURLToPath(new URL("../../dist/index.js", import.meta.url));

/** A Node process that opens (and so migrates) the store and closes it; its exit code. */
function openInAnotherProcess(url: string): Promise<number | null> {
  const script = `const { openStore } = await import(${JSON.stringify(built)}); await (await openStore(process.argv[1])).close();`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script, url], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  return new Promise((resolve) => child.on("close", resolve));
}

/** How many run events the rows hold (a row is a batch of events, or one event written before batches). */
const EVENTS_STORED = "SELECT COALESCE(SUM(COALESCE(last_seq, seq) - seq + 1), 0) AS n FROM run_events";

const count = async (db: Database, table: string, thread: string) =>
  Number((await db.query(`SELECT COUNT(*) AS n FROM ${table} WHERE thread_id = '${thread}'`))[0]!.n);

/** A conversation of `n` messages after the opening, on thread `id`. */
/** A turn taken and played in two halves, as a server does: `onHeld` runs once the thread is taken (a server records its run there). */
async function heldTurn(
  store: Store,
  agent: Agent,
  threadId: string,
  text: string | null,
  onHeld: (lease: Lease) => Promise<void>,
  messageId?: string,
) {
  const { held } = await acquireTurn(store, threadId, text, { messageId: messageId ?? null });
  if (!held) throw new Error(`the message ${messageId} had made its turn`);
  try {
    await onHeld(held.lease);
    const result = await agent.reply(text ?? "", held.memory ?? undefined);
    return await held.commit({ ...result, trace: [], startedAt: Date.now() });
  } finally {
    await held.release();
  }
}

async function talk(store: Store, id: string, n: number, model = new EchoModel()) {
  const agent = echoAgent(model);
  const replies: (string | null)[] = [(await runTurn(store, agent, id, null)).reply];
  for (let i = 1; i <= n; i++) replies.push((await runTurn(store, agent, id, `message ${i}`)).reply);
  return replies;
}

/**
 * Registers the suite for the store `backend` opens, with the runner's `describe`, `it` and
 * `expect` (vitest's or Jest's): `storeSuite("MyStore", backend, { describe, it, expect })`.
 */
export function storeSuite(name: string, backend: Backend, { describe, it, expect }: TestApi): void {
  describe(`${name} store`, () => {
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
          const snapshots = (await db.query("SELECT seq FROM snapshots WHERE thread_id = 'long' ORDER BY seq")).map(
            (r) => Number(r.seq),
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

    it("makes one turn per message id: sending it again returns the turn it made", () =>
      withStore(backend, async (store) => {
        const model = new EchoModel();
        const agent = echoAgent(model);
        await runTurn(store, agent, "idem", null);
        const a = await runTurn(store, agent, "idem", "hi", { messageId: "m-1" });
        const b = await runTurn(store, agent, "idem", "hi", { messageId: "m-1" });
        expect(a.repeated).toBe(false);
        expect(b).toMatchObject({ repeated: true, reply: "echo: hi", turn: { seq: 2, messageId: "m-1" } });
        expect(model.calls).toBe(1);
        expect((await store.thread("idem"))!.version).toBe(2);
      }));

    it("takes a thread for a message in one go: a made turn given back untaken, another agent's thread unknown, the same message refused or waited for", () =>
      withStore(
        backend,
        async (store) => {
          const agent = echoAgent(new EchoModel());
          await runTurn(store, agent, "take", null);
          await runTurn(store, agent, "take", "hi", { messageId: "m-1" });
          // A message id that made its turn gets it back, whatever the policy, and nothing is taken.
          for (const policy of ["reject", "enqueue", "interrupt"] as const)
            expect(await store.takeThread("take", { messageId: "m-1", user: "hi", policy })).toMatchObject({
              made: { seq: 2, messageId: "m-1", user: "hi", reply: "echo: hi" },
              endedThere: false,
            });
          expect((await store.thread("take"))!.running).toBeNull();
          await expect(store.takeThread("take", { agent: "another", messageId: "m-2" })).rejects.toMatchObject({
            code: "unknown_thread",
          });
          expect((await store.thread("take"))!.running).toBeNull();
          const { lease, memory } = await store.takeThread("take", {
            agent: agent.graph.agent,
            messageId: "m-2",
            user: "two",
            policy: "enqueue",
          });
          expect(lease).toMatchObject({ version: 2, messageId: "m-2" });
          expect(memory).toEqual(await store.memoryAt("take", 2));
          // The same message while its run is in progress: refused, or conflicting with another text.
          await expect(
            store.takeThread("take", { messageId: "m-2", user: "two", policy: "enqueue", sameMessage: "refuse" }),
          ).rejects.toMatchObject({ code: "same_message" });
          await expect(store.takeThread("take", { messageId: "m-2", user: "too" })).rejects.toMatchObject({
            code: "message_conflict",
          });
          // Or waited for (enqueue's default): its turn, once made, comes back.
          const waiting = store.takeThread("take", { messageId: "m-2", user: "two", policy: "enqueue" });
          await new Promise((r) => setTimeout(r, 50));
          const played = await agent.reply("two", memory!);
          await store.commit(lease!, { messageId: "m-2", user: "two", ...played, startedAt: Date.now() });
          expect(await waiting).toMatchObject({ made: { seq: 3, messageId: "m-2" } });
          expect((await store.thread("take"))!.running).toBeNull();
        },
        { pollMs: 10 },
      ));

    it("commits a turn and its run's events in one transaction: both or neither", () =>
      withStore(backend, async (store) => {
        const agent = echoAgent(new EchoModel());
        const events = (from: number, n: number) =>
          Array.from({ length: n }, (_, i) => ({ seq: from + i, event: { type: "step", i: from + i } }));
        /** Plays `text` on the thread `taken` for it, and commits it with its run's `events` (from 1, ending it). */
        const commit = async (taken: TakenThread, text: string, runId: string, n: number) =>
          store.commit(taken.lease!, {
            messageId: taken.lease!.messageId,
            user: text,
            ...(await agent.reply(text, taken.memory ?? undefined)),
            startedAt: Date.now(),
            run: {
              runId,
              events: events(1, n),
              end: "finished",
              begin: { id: runId, lease: taken.lease!, user: text },
            },
          });
        const turn = await commit(await store.takeThread("both", { messageId: "b-1", user: "hi" }), "hi", "r-1", 3);
        expect(turn.seq).toBe(1);
        expect(await store.run("r-1")).toMatchObject({ status: "finished", lastSeq: 3, turn: 1, messageId: "b-1" });
        expect((await store.runEvents("r-1")).map((e) => e.seq)).toEqual([1, 2, 3]);
        // A commit refused (its lease taken over) writes none of its run's events.
        const second = await store.takeThread("both", { messageId: "b-2", user: "two" });
        const interrupting = await store.acquire("both", { policy: "interrupt" });
        await expect(commit(second, "two", "r-2", 2)).rejects.toMatchObject({ code: "lease_lost" });
        expect(await store.run("r-2")).toBeNull();
        await store.release(interrupting);
        // A run that another writer has ended refuses its events, and the turn with them.
        const third = await store.takeThread("both", { messageId: "b-3", user: "three" });
        const begin = { id: "r-3", lease: third.lease!, user: "three" };
        expect(await store.appendRunEvents("r-3", events(1, 1), "failed", begin)).toBe(true);
        await expect(
          store.commit(third.lease!, {
            messageId: "b-3",
            user: "three",
            ...(await agent.reply("three", third.memory ?? undefined)),
            startedAt: Date.now(),
            run: { runId: "r-3", events: events(2, 1), end: "finished" },
          }),
        ).rejects.toMatchObject({ code: "lease_lost" });
        expect((await store.turns("both")).map((t) => [t.messageId, t.status])).toEqual([
          ["b-1", "ok"],
          ["b-2", "interrupted"],
        ]);
        expect(await store.run("r-3")).toMatchObject({ status: "failed", lastSeq: 1 });
      }));

    it("keeps the thread through a commit that continues (an opening before its message), then gives it back", () =>
      withStore(backend, async (store) => {
        const agent = echoAgent(new EchoModel());
        const taken = await store.takeThread("cont", { messageId: "c-1", user: "hi" });
        const lease = taken.lease!;
        const opening = await agent.reply("", undefined);
        const events = [{ seq: 1, event: { type: "run-start" } }];
        const first = await store.commit(lease, {
          messageId: null,
          user: null,
          ...opening,
          startedAt: Date.now(),
          run: { runId: "r-c", events, begin: { id: "r-c", lease, user: "hi" } },
          continues: true,
        });
        expect(first).toMatchObject({ seq: 1, messageId: null, user: null });
        // Still held, by the same token, for the message; the run goes on for its turn.
        expect((await store.thread("cont"))!.running).toMatchObject({ messageId: "c-1" });
        await expect(store.acquire("cont")).rejects.toMatchObject({ code: "thread_busy" });
        expect(await store.run("r-c")).toMatchObject({ status: "running", turn: 2, messageId: "c-1" });
        const next = { ...lease, version: 1 };
        expect(await store.renew(next)).toBe(true);
        // The lease at its old version no longer commits.
        const played = await agent.reply("hi", opening.memory);
        await expect(
          store.commit(lease, { messageId: "c-1", user: "hi", ...played, startedAt: Date.now() }),
        ).rejects.toMatchObject({ code: "lease_lost" });
        const second = await store.commit(next, {
          messageId: "c-1",
          user: "hi",
          ...played,
          startedAt: Date.now(),
          run: { runId: "r-c", events: [{ seq: 2, event: { type: "run-finish" } }], end: "finished" },
        });
        expect(second).toMatchObject({ seq: 2, messageId: "c-1" });
        expect((await store.thread("cont"))!.running).toBeNull();
        expect(await store.run("r-c")).toMatchObject({ status: "finished", turn: 2, lastSeq: 2 });
        expect(await store.memoryAt("cont", 2)).toEqual(played.memory);
        // The run's record written before the commit (its first batch came first): the same.
        const other = (await store.takeThread("cont-2", { messageId: "d-1", user: "yo" })).lease!;
        const begin = { id: "r-d", lease: other, user: "yo" };
        expect(await store.appendRunEvents("r-d", events, undefined, begin)).toBe(true);
        await store.commit(other, {
          messageId: null,
          user: null,
          ...(await agent.reply("", undefined)),
          startedAt: Date.now(),
          run: { runId: "r-d", events: [{ seq: 2, event: { type: "step" } }] },
          continues: true,
        });
        expect(await store.run("r-d")).toMatchObject({ status: "running", turn: 2, lastSeq: 2 });
        expect((await store.thread("cont-2"))!.running).toMatchObject({ messageId: "d-1" });
        // A first turn whose lease was taken over commits nothing: no turn, no snapshot, no events.
        const lost = (await store.takeThread("cont-3", { messageId: "e-1", user: "hey" })).lease!;
        const over = await store.acquire("cont-3", { policy: "interrupt" });
        await expect(
          store.commit(lost, {
            messageId: null,
            user: null,
            ...(await agent.reply("", undefined)),
            startedAt: Date.now(),
            run: { runId: "r-e", events, end: "finished", begin: { id: "r-e", lease: lost, user: "hey" } },
          }),
        ).rejects.toMatchObject({ code: "lease_lost" });
        expect(await store.run("r-e")).toBeNull();
        expect((await store.turns("cont-3")).map((t) => t.status)).toEqual(["interrupted"]);
        await store.release(over);
      }));

    it("makes one turn of a message id sent many times at once, to two stores on the same database", () =>
      withStore(
        backend,
        async (store, db) => {
          const other = await db.open({ pollMs: 10 });
          try {
            const model = new EchoModel();
            await runTurn(store, echoAgent(model), "dup", null);
            for (const policy of ["enqueue", "reject", "interrupt"] as const) {
              const id = `d-${policy}`;
              const outcomes = await Promise.all(
                Array.from({ length: 6 }, (_, i) =>
                  runTurn(i % 2 ? other : store, echoAgent(model), "dup", "once", { messageId: id, policy }).catch(
                    (err: StoreError) => err.code,
                  ),
                ),
              );
              const made = outcomes.filter((o) => typeof o !== "string");
              expect(made.filter((o) => !o.repeated)).toHaveLength(1);
              for (const o of made) expect(o.turn).toMatchObject({ messageId: id, reply: "echo: once" });
              // The others were told the message is being answered, or the thread busy with it.
              for (const o of outcomes) if (typeof o === "string") expect(["same_message", "thread_busy"]).toContain(o);
            }
            expect((await store.turns("dup")).map((t) => [t.messageId, t.status])).toEqual([
              [null, "ok"],
              ["d-enqueue", "ok"],
              ["d-reject", "ok"],
              ["d-interrupt", "ok"],
            ]);
          } finally {
            await other.close();
          }
        },
        { pollMs: 10 },
      ));

    it("gives a new thread to one holder at a time when several ask for it at once, from two stores", () =>
      withStore(
        backend,
        async (store, db) => {
          const other = await db.open({ pollMs: 10 });
          try {
            for (const policy of ["reject", "enqueue"] as const) {
              const id = `new-${policy}`;
              let holding = 0;
              const outcomes = await Promise.all(
                Array.from({ length: 6 }, async (_, i) => {
                  const s = i % 2 ? other : store;
                  try {
                    const lease = await s.acquire(id, { policy });
                    expect(lease.version).toBe(0);
                    expect(++holding).toBe(1);
                    await new Promise((r) => setTimeout(r, 5));
                    holding--;
                    await s.release(lease);
                    return "taken";
                  } catch (err) {
                    return (err as StoreError).code;
                  }
                }),
              );
              expect(outcomes).toContain("taken");
              if (policy === "enqueue") expect(outcomes).toEqual(Array(6).fill("taken"));
              else for (const o of outcomes) expect(["taken", "thread_busy"]).toContain(o);
              expect(await store.thread(id)).toMatchObject({ id, version: 0, running: null });
            }
          } finally {
            await other.close();
          }
        },
        { pollMs: 10 },
      ));

    it("rejects a second message while a run is in progress, naming the run (policy reject)", () =>
      withStore(backend, async (store) => {
        const model = new EchoModel();
        await runTurn(store, echoAgent(model), "busy", null);
        const g = gate();
        model.gate = g.promise;
        const started = model.nextStart();
        const first = runTurn(store, echoAgent(model), "busy", "slow one", { messageId: "m-slow", owner: "worker A" });
        await started;
        const err = await runTurn(store, echoAgent(model), "busy", "second").catch((e) => e);
        expect(err).toBeInstanceOf(StoreError);
        expect(err.code).toBe("thread_busy");
        expect(err.message).toMatch(/^thread busy is busy: a run of message m-slow by worker A is in progress/);
        expect(err.message).not.toContain("\n");
        expect((await store.thread("busy"))!.running).toMatchObject({ owner: "worker A", messageId: "m-slow" });
        g.open();
        await first;
        expect((await store.turns("busy")).map((t) => t.user)).toEqual([null, "slow one"]);
        expect((await store.thread("busy"))!.running).toBeNull();
      }));

    it("queues messages for a busy thread and serves them first come, first served (policy enqueue)", () =>
      withStore(
        backend,
        async (store) => {
          const model = new EchoModel();
          await runTurn(store, echoAgent(model), "q", null);
          const g = gate();
          model.gate = g.promise;
          const started = model.nextStart();
          const runs = [runTurn(store, echoAgent(model), "q", "first", { policy: "enqueue" })];
          await started;
          model.gate = null;
          runs.push(runTurn(store, echoAgent(model), "q", "second", { policy: "enqueue" }));
          await new Promise((r) => setTimeout(r, 100)); // "second" has its ticket before "third" asks
          runs.push(runTurn(store, echoAgent(model), "q", "third", { policy: "enqueue" }));
          await new Promise((r) => setTimeout(r, 100));
          // While they wait, a rejecting sender is told the thread is busy.
          await expect(runTurn(store, echoAgent(model), "q", "impatient")).rejects.toMatchObject({
            code: "thread_busy",
          });
          g.open();
          await Promise.all(runs);
          expect((await store.turns("q")).map((t) => t.user)).toEqual([null, "first", "second", "third"]);
        },
        { pollMs: 10 },
      ));

    it("gives up waiting after waitMs (policy enqueue)", () =>
      withStore(
        backend,
        async (store) => {
          const lease = await store.acquire("w");
          const err = await store.acquire("w", { policy: "enqueue", waitMs: 150 }).catch((e) => e);
          expect(err).toMatchObject({ code: "thread_busy" });
          await store.release(lease);
          await store.release(await store.acquire("w")); // the abandoned waiter does not block the thread
        },
        { pollMs: 10 },
      ));

    for (const policy of ["interrupt", "rollback"] as const) {
      it(`stops the run in progress for a newer message (policy ${policy})`, () =>
        withStore(backend, async (store) => {
          const model = new EchoModel();
          await runTurn(store, echoAgent(model), policy, null);
          const g = gate();
          model.gate = g.promise;
          const started = model.nextStart();
          // A short lease: the stopped run learns it lost the thread at its next renewal.
          const old = runTurn(store, echoAgent(model), policy, "old message", { messageId: "m-old", ttlMs: 300 }).catch(
            (e) => e,
          );
          await started;
          model.gate = null;
          const fresh = await runTurn(store, echoAgent(model), policy, "new message", { policy });
          expect(fresh.reply).toBe("echo: new message");
          const err = await old;
          expect(err).toMatchObject({ code: "lease_lost" });
          g.open();
          await new Promise((r) => setTimeout(r, 50));
          // The stopped run's reply never reached memory.
          expect(JSON.stringify((await store.load(policy)).memory)).not.toContain("echo: old message");
          const turns = await store.turns(policy);
          if (policy === "interrupt") {
            expect(turns.map((t) => [t.user, t.reply, t.status])).toEqual([
              [null, "Hello! Say something.", "ok"],
              ["old message", null, "interrupted"],
              ["new message", "echo: new message", "ok"],
            ]);
          } else {
            expect(turns.map((t) => t.user)).toEqual([null, "new message"]);
            // The rolled-back message left no trace: its id may be sent again.
            expect(
              (await runTurn(store, echoAgent(model), policy, "old message", { messageId: "m-old" })).repeated,
            ).toBe(false);
          }
        }));
    }

    it("commits only with the lease it was given (compare-and-swap): an expired, taken-over lease commits nothing", () =>
      withStore(backend, async (store, db) => {
        const agent = echoAgent();
        await runTurn(store, agent, "cas", null);
        const { memory } = await store.load("cas");
        const lease = await store.acquire("cas", { ttlMs: 1000 });
        const result = await agent.reply("late", memory);
        // Another process, 5 s later, finds the lease expired and takes the thread.
        const later = await db.open({ now: () => Date.now() + 5000 });
        try {
          expect((await later.thread("cas"))!.running).toBeNull();
          const other = await later.acquire("cas");
          await later.commit(other, {
            messageId: null,
            user: "other",
            reply: "x",
            memory: result.memory,
            startedAt: Date.now(),
          });
        } finally {
          await later.close();
        }
        await expect(
          store.commit(lease, {
            messageId: null,
            user: "late",
            reply: result.reply,
            memory: result.memory,
            startedAt: Date.now(),
          }),
        ).rejects.toMatchObject({ code: "lease_lost" });
        expect((await store.turns("cas")).map((t) => t.user)).toEqual([null, "other"]);
      }));

    it("a lease that lapsed neither renews nor commits, even while no one has taken the thread: its run ends run_lost", () =>
      withStore(backend, async (store, db) => {
        const agent = echoAgent();
        await runTurn(store, agent, "stalled", null);
        const { memory } = await store.load("stalled");
        const lease = await store.acquire("stalled", { ttlMs: 1000 });
        await store.beginRun({ id: "stalled-run", lease, user: "late" });
        const result = await agent.reply("late", memory);
        // Its process stalled past the lease's lifetime (this store's clock, 2 s on).
        const later = await db.open({ now: () => Date.now() + 2000 });
        try {
          // Read after its process is gone, the run is given the end it is owed: nothing was committed.
          expect((await later.run("stalled-run"))!.status).toBe("failed");
          expect((await later.runEvents("stalled-run")).map((e) => e.event)).toMatchObject([
            { type: "run-error", code: "run_lost" },
          ]);
          expect(await later.renew(lease)).toBe(false);
          await expect(
            later.commit(lease, {
              messageId: null,
              user: "late",
              reply: result.reply,
              memory: result.memory,
              startedAt: Date.now(),
            }),
          ).rejects.toMatchObject({ code: "lease_lost", message: expect.stringContaining("lapsed") });
        } finally {
          await later.close();
        }
        expect((await store.turns("stalled")).map((t) => t.user)).toEqual([null]);
      }));

    it("lets a lease lapse after its lifetime, so a dead process never holds a thread for good", () =>
      withStore(backend, async (store) => {
        const lease = await store.acquire("lapse", { ttlMs: 200, owner: "dead process" });
        await expect(store.acquire("lapse")).rejects.toMatchObject({ code: "thread_busy" });
        await new Promise((r) => setTimeout(r, 300));
        expect((await store.thread("lapse"))!.running).toBeNull();
        const next = await store.acquire("lapse");
        expect(await store.renew(lease)).toBe(false);
        expect(await store.renew(next)).toBe(true);
        await store.release(next);
        expect(store.options.leaseMs).toBeLessThanOrEqual(10_000);
      }));

    it("renews many leases in one call, and tells which are no longer held", () =>
      withStore(backend, async (store) => {
        const held = await Promise.all(["r1", "r2", "r3"].map((id) => store.acquire(id, { ttlMs: 10_000 })));
        const released = await store.acquire("r4");
        await store.release(released);
        const lapsing = await store.acquire("r5", { ttlMs: 100 });
        const longer = await store.acquire("r6", { ttlMs: 60_000 });
        await new Promise((r) => setTimeout(r, 200));
        // Another thread's token with this thread's id is not this thread's lease.
        const forged = { ...held[0]!, threadId: "r2" };
        const kept = await store.renewAll([...held, released, lapsing, longer, forged]);
        expect([...kept].sort()).toEqual([...held, longer].map((l) => l.token).sort());
        expect(await store.renewAll([])).toEqual(new Set());
        // Each keeps its own lifetime.
        const r1 = (await store.thread("r1"))!.running!.expiresAt;
        expect(r1).toBeGreaterThan(Date.now() + 9_000);
        expect((await store.thread("r6"))!.running!.expiresAt - r1).toBeGreaterThan(45_000);
        expect(await store.renew(lapsing)).toBe(false);
        for (const l of [...held, longer]) await store.release(l);
      }));

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

    it("keeps a run's events as they come, numbered, and tells whether the run finished", () =>
      withStore(backend, async (store, db) => {
        await talk(store, "r", 1);
        expect(await store.latestRun("r")).toBeNull();
        let runId = "";
        const turn = heldTurn(
          store,
          echoAgent(),
          "r",
          "hello",
          async (lease) => {
            const run = await store.beginRun({ lease, user: "hello" });
            runId = run.id;
            expect(run).toMatchObject({
              threadId: "r",
              messageId: "m-r",
              user: "hello",
              turn: 3,
              status: "running",
              lastSeq: 0,
              follows: null,
            });
            expect(
              await store.appendRunEvents(run.id, [
                { seq: 1, event: { type: "run-start" } },
                { seq: 2, event: { n: 2 } },
              ]),
            ).toBe(true);
          },
          "m-r",
        );
        await turn;
        // Committed, its last events not written yet.
        expect(await store.run(runId)).toMatchObject({ status: "committed", lastSeq: 2 });
        // Numbering must go on from the last event: a second writer numbering the same events loses.
        expect(await store.appendRunEvents(runId, [{ seq: 2, event: { again: true } }])).toBe(false);
        await expect(
          store.appendRunEvents(runId, [
            { seq: 3, event: {} },
            { seq: 5, event: {} },
          ]),
        ).rejects.toMatchObject({ code: "bad_request" });
        expect(
          await store.appendRunEvents(
            runId,
            [{ seq: 3, event: { type: "run-finish", text: 'é \u2028 "q"' } }],
            "finished",
          ),
        ).toBe(true);
        expect(await store.appendRunEvents(runId, [{ seq: 4, event: {} }])).toBe(false); // it has ended
        expect(await store.runEvents(runId)).toEqual([
          { seq: 1, event: { type: "run-start" } },
          { seq: 2, event: { n: 2 } },
          { seq: 3, event: { type: "run-finish", text: 'é \u2028 "q"' } },
        ]);
        expect((await store.runEvents(runId, 1)).map((e) => e.seq)).toEqual([2, 3]);
        expect((await store.runEvents(runId, 0, 1)).map((e) => e.seq)).toEqual([1]);
        expect(await store.latestRun("r")).toMatchObject({ id: runId, status: "finished", lastSeq: 3, turn: 3 });
        expect(await store.run("nope")).toBeNull();
        // A run may go on with the next turn under a new lease (an opening, then the message).
        const lease = await store.acquire("r", { messageId: "m-next" });
        await expect(store.continueRun(runId, lease)).rejects.toMatchObject({ code: "bad_request" }); // it has ended
        const next = await store.beginRun({ lease, user: null });
        await store.commit(lease, {
          messageId: "m-next",
          user: null,
          reply: "x",
          memory: (await store.load("r")).memory!,
          startedAt: 0,
        });
        const again = await store.acquire("r", { messageId: "m-after" });
        await store.continueRun(next.id, again);
        expect(await store.run(next.id)).toMatchObject({ status: "running", turn: 5, messageId: "m-after" });
        await store.release(again);
        // A run recorded with its first (here: only) batch, in one write.
        const short = await store.acquire("r");
        expect(
          await store.appendRunEvents("one-write", [{ seq: 1, event: { type: "run-start" } }], "failed", {
            lease: short,
            user: "brief",
          }),
        ).toBe(true);
        expect(await store.run("one-write")).toMatchObject({
          threadId: "r",
          user: "brief",
          status: "failed",
          lastSeq: 1,
        });
        await store.release(short);
        // A run recorded with a first batch that does not end it: the next batch goes on from it.
        const longer = await store.acquire("r");
        const start = [1, 2].map((seq) => ({ seq, event: { seq } }));
        expect(await store.appendRunEvents("two-writes", start, undefined, { lease: longer, user: "more" })).toBe(true);
        expect(await store.run("two-writes")).toMatchObject({ status: "running", lastSeq: 2 });
        expect(await store.appendRunEvents("two-writes", [{ seq: 3, event: { seq: 3 } }], "finished")).toBe(true);
        expect(await store.run("two-writes")).toMatchObject({ status: "finished", lastSeq: 3 });
        expect((await store.runEvents("two-writes")).map((e) => e.seq)).toEqual([1, 2, 3]);
        // A run's first batch is numbered from 1.
        await expect(
          store.appendRunEvents("late-start", [{ seq: 2, event: {} }], undefined, { lease: longer, user: null }),
        ).rejects.toMatchObject({ code: "bad_request", message: expect.stringContaining("numbered from 1") });
        expect(await store.run("late-start")).toBeNull();
        await store.release(longer);
        expect(Number((await db.query(EVENTS_STORED))[0]!.n)).toBe(7);
      }));

    it("keeps a batch of run events as one row, and reads any of its events after a number", () =>
      withStore(backend, async (store, db) => {
        const lease = await store.acquire("batches");
        const events = (from: number, n: number) =>
          Array.from({ length: n }, (_, i) => ({
            seq: from + i,
            event: { type: "step", n: from + i, text: 'é\u2028"' },
          }));
        expect(await store.appendRunEvents("b", events(1, 3), undefined, { lease, user: "hi" })).toBe(true);
        expect(await store.appendRunEvents("b", events(4, 2), "finished")).toBe(true);
        await store.release(lease);
        const rows = await db.query("SELECT seq, last_seq FROM run_events WHERE run_id = 'b' ORDER BY seq");
        expect(rows.map((r) => [Number(r.seq), Number(r.last_seq)])).toEqual([
          [1, 3],
          [4, 5],
        ]);
        const seqs = async (after?: number, limit?: number) =>
          (await store.runEvents("b", after, limit)).map((e) => e.seq);
        expect(await store.runEvents("b")).toEqual(events(1, 5));
        expect(await seqs(2)).toEqual([3, 4, 5]);
        expect(await seqs(2, 2)).toEqual([3, 4]);
        expect(await seqs(3, 1)).toEqual([4]);
        expect(await seqs(0, 4)).toEqual([1, 2, 3, 4]);
        expect(await seqs(5)).toEqual([]);
        // A run's events written one to a row, as before batches were kept so, read as they were.
        const older = await store.acquire("older");
        expect(await store.appendRunEvents("o", [], undefined, { lease: older, user: null })).toBe(true);
        for (const seq of [1, 2, 3])
          await db.query(
            `INSERT INTO run_events (run_id, seq, event) VALUES ('o', ${seq}, '{"type":"step","n":${seq}}')`,
          );
        expect(await store.runEvents("o", 1)).toEqual([
          { seq: 2, event: { type: "step", n: 2 } },
          { seq: 3, event: { type: "step", n: 3 } },
        ]);
        expect((await store.runEvents("o", 0, 2)).map((e) => e.seq)).toEqual([1, 2]);
        await store.release(older);
      }));

    it("wakes a run's watchers, in another store on the same database too, and tells an abandoned run", () =>
      withStore(backend, async (store, db) => {
        const other = await db.open();
        try {
          const lease = await store.acquire("watched", { ttlMs: 1000 });
          const run = await store.beginRun({ lease, user: "hi", id: "run-w" });
          let woken = 0;
          let wake: () => void = () => {};
          const stop = other.watchRun(run.id, () => {
            woken++;
            wake();
          });
          const seen: number[] = [];
          for (let seq = 1; seq <= 3; seq++) {
            const next = new Promise<void>((r) => (wake = r));
            await store.appendRunEvents(run.id, [{ seq, event: { seq } }]);
            await next;
            seen.push(...(await other.runEvents(run.id, seen.at(-1) ?? 0)).map((e) => e.seq));
          }
          expect(seen).toEqual([1, 2, 3]);
          stop();
          const after = woken;
          await store.appendRunEvents(run.id, [{ seq: 4, event: {} }]);
          await new Promise((r) => setTimeout(r, 50));
          expect(woken).toBe(after);
          expect((await other.run(run.id))!.status).toBe("running");
          // Its lease lapses (seen from a store whose clock is later) or is taken over: abandoned,
          // and read by id it is given the end it is owed (its turn was not committed: run_lost).
          const later = await db.open({ now: () => Date.now() + 5000 });
          try {
            expect((await later.latestRun("watched"))!.status).toBe("abandoned");
            expect((await later.run(run.id))!.status).toBe("failed");
            expect((await later.runEvents(run.id, 4)).map((e) => e.event)).toMatchObject([
              { type: "run-error", code: "run_lost" },
            ]);
          } finally {
            await later.close();
          }
          await store.release(lease);
          expect((await store.run(run.id))!.status).toBe("failed");
          // Its end is written once: a second writer adds nothing.
          expect(await store.appendRunEvents(run.id, [{ seq: 6, event: { type: "run-error" } }], "failed")).toBe(false);
        } finally {
          await other.close();
        }
      }));

    it("deletes and prunes a thread's runs with it", () =>
      withStore(
        backend,
        async (store, db) => {
          const agent = echoAgent();
          const record = async (lease: Lease) => {
            const run = await store.beginRun({ lease, user: null });
            await store.appendRunEvents(run.id, [{ seq: 1, event: {} }], "finished");
          };
          await heldTurn(store, agent, "gone", null, record);
          for (let i = 0; i < 6; i++) await heldTurn(store, agent, "kept", i === 0 ? null : `m ${i}`, record);
          expect(await store.deleteThread("gone")).toBe(true);
          expect(await count(db, "runs", "gone")).toBe(0);
          await store.prune({ keepTurns: 2 });
          const first = (await store.thread("kept"))!.firstSeq;
          const turns = (await db.query("SELECT turn FROM runs WHERE thread_id = 'kept' ORDER BY turn")).map((r) =>
            Number(r.turn),
          );
          expect(turns[0]).toBe(first);
          const orphans = await db.query(`${EVENTS_STORED} WHERE run_id NOT IN (SELECT id FROM runs)`);
          expect(Number(orphans[0]!.n)).toBe(0);
          expect(Number((await db.query(EVENTS_STORED))[0]!.n)).toBe(turns.length);
        },
        { snapshotEvery: 2 },
      ));

    it("records a run's batch of any size (past the drivers' limit on bound parameters)", () =>
      withStore(backend, async (store) => {
        const lease = await store.acquire("big");
        const events = Array.from({ length: 12_000 }, (_, i) => ({ seq: i + 1, event: { type: "step", i } }));
        expect(await store.appendRunEvents("big-run", events, "failed", { lease, user: "loop" })).toBe(true);
        expect(await store.run("big-run")).toMatchObject({ status: "failed", lastSeq: 12_000 });
        const stored = await store.runEvents("big-run", 11_998);
        expect(stored).toEqual([
          { seq: 11_999, event: { type: "step", i: 11_998 } },
          { seq: 12_000, event: { type: "step", i: 11_999 } },
        ]);
        await store.release(lease);
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
          [() => store.takeThread("a", { owner: odd(7) }), "owner: must be a string, not number"],
          [() => store.takeThread("a", { create: odd("no") }), "create: must be a boolean, not string"],
          [() => store.takeThread("a", { signal: odd({}) }), "signal: must be an AbortSignal, not object"],
          [() => store.listThreads({ limit: odd("5") }), "limit: must be a whole number (below 0: no limit), not '5'"],
          [() => store.listThreads({ limit: 1.5 }), "limit: must be a whole number (below 0: no limit), not 1.5"],
          [() => store.setTitle("ok", odd({ t: 1 })), "title: must be a string or null, not object"],
          [() => store.prune({ olderThanMs: odd("x") }), "olderThanMs: must be a whole number, at least 0, not 'x'"],
          [() => store.prune({ keepTurns: -1 }), "keepTurns: must be a whole number, at least 0, not -1"],
          [() => store.run(odd({})), "runId: must be a string, not object"],
          [() => store.runEvents(odd(1)), "runId: must be a string, not number"],
          [() => store.memoryAt("ok", odd("1")), "turn: must be a whole number, at least 0, not '1'"],
          [() => store.fork("ok", Number.NaN), "turn: must be a whole number, at least 0, not NaN"],
          [() => store.fork("ok", 1.5), "turn: must be a whole number, at least 0, not 1.5"],
          [
            () => runTurn(store, odd(null), "a", "hi"),
            "agent: must be an Agent (new Agent(graph, { model })), not null",
          ],
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
  });
}
