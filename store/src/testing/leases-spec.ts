/**
 * The store suite's leases: one turn per message id, taking a thread under each busy policy, the
 * commit's compare-and-swap, and leases that lapse or are renewed (LeaseStore).
 */
import { StoreError } from "../errors.js";
import { acquireTurn } from "../turns/held-turn.js";
import { runTurn } from "../turns/run-turn.js";
import type { TakenThread } from "../types.js";
import { EchoModel, echoAgent, gate } from "./echo-agent.js";
import { type Backend, withStore } from "./suite-support.js";
import type { TestApi } from "./test-api.js";

/** Registers the leases half of the store suite for the store `backend` opens; it runs alone as well. */
export function leasesSpec(name: string, backend: Backend, api: TestApi): void {
  api.describe(`${name} store: leases`, () => leasesTests(backend, api));
}

/** The leases tests, registered in the describe block the caller is in (storeSuite puts the three concerns in one). */
export function leasesTests(backend: Backend, { it, expect }: TestApi): void {
  it("answers the last message again (replaces): the turn it replaces is kept as replaced, its message id moved", () =>
    withStore(backend, async (store) => {
      const agent = echoAgent(new EchoModel());
      await runTurn(store, agent, "again", null);
      await runTurn(store, agent, "again", "first", { messageId: "m-1" });
      const { held } = await acquireTurn(store, "again", "first", { messageId: "m-1", replaces: 2 });
      expect(held!.memory).toEqual(await store.memoryAt("again", 1));
      const played = await agent.reply("first", held!.memory!);
      const turn = await held!.commit({ ...played, trace: [], startedAt: Date.now() });
      expect(turn).toMatchObject({ seq: 3, messageId: "m-1", status: "ok", reply: "echo: first" });
      expect((await store.turns("again")).map((t) => [t.seq, t.messageId, t.status])).toEqual([
        [1, null, "ok"],
        [2, null, "replaced"],
        [3, "m-1", "ok"],
      ]);
      expect(await store.turnByMessage("again", "m-1")).toMatchObject({ seq: 3 });
      expect((await store.load("again")).memory).toEqual(played.memory);
      expect((await runTurn(store, agent, "again", "first", { messageId: "m-1" })).repeated).toBe(true);
    }));

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
          expect((await runTurn(store, echoAgent(model), policy, "old message", { messageId: "m-old" })).repeated).toBe(
            false,
          );
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

  it("a lease that lapsed neither renews nor commits, even while no one has taken the thread: its run is abandoned", () =>
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
        // Read after its process is gone, the run is abandoned (its readers write the end it is owed).
        expect((await later.run("stalled-run"))!.status).toBe("abandoned");
        expect(await later.runEvents("stalled-run")).toEqual([]);
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
}
