/**
 * The store suite's run log: a run's events as they come, in batches, woken watchers, abandoned
 * runs, and runs deleted with their thread (RunLogStore).
 */
import type { Lease } from "../types.js";
import { echoAgent } from "./echo-agent.js";
import { type Backend, withStore, EVENTS_STORED, count, heldTurn, talk } from "./suite-support.js";
import type { TestApi } from "./test-api.js";

/** Registers the run-log half of the store suite for the store `backend` opens; it runs alone as well. */
export function runLogSpec(name: string, backend: Backend, api: TestApi): void {
  api.describe(`${name} store: run log`, () => runLogTests(backend, api));
}

/** The run log tests, registered in the describe block the caller is in (storeSuite puts the three concerns in one). */
export function runLogTests(backend: Backend, { it, expect }: TestApi): void {
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
        // read by id as by thread. The store writes no end of its own: a reader that knows what
        // the run is owed writes it, and it is kept as given.
        const later = await db.open({ now: () => Date.now() + 5000 });
        try {
          expect((await later.latestRun("watched"))!.status).toBe("abandoned");
          expect((await later.run(run.id))!.status).toBe("abandoned");
          expect(await later.runEvents(run.id, 4)).toEqual([]);
          expect(await later.appendRunEvents(run.id, [{ seq: 5, event: { owed: "end" } }], "failed")).toBe(true);
          expect((await later.run(run.id))!.status).toBe("failed");
          expect(await later.runEvents(run.id, 4)).toEqual([{ seq: 5, event: { owed: "end" } }]);
        } finally {
          await later.close();
        }
        await store.release(lease);
        expect((await store.run(run.id))!.status).toBe("failed");
        // Its end is written once: a second reader writing it, or the run's own process, adds nothing.
        expect(await store.appendRunEvents(run.id, [{ seq: 5, event: { owed: "again" } }], "failed")).toBe(false);
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

  it("drops the events of runs that finished long enough ago, and keeps their records", () =>
    withStore(backend, async (store, db) => {
      const ended = async (id: string, end: "finished" | "failed" | undefined) => {
        const lease = await store.acquire(`t-${id}`);
        const events = [1, 2, 3].map((seq) => ({ seq, event: { seq } }));
        await store.appendRunEvents(id, events.slice(0, 2), undefined, { lease, user: id });
        await store.appendRunEvents(id, events.slice(2), end);
        if (end) await store.release(lease);
      };
      await ended("done", "finished");
      await ended("broke", "failed");
      await ended("going", undefined);
      // Ended moments ago: kept while the window lasts.
      expect(await store.dropRunEvents(60_000)).toBe(0);
      expect((await store.runEvents("done")).map((e) => e.seq)).toEqual([1, 2, 3]);
      // Seen from a store whose clock is a minute later, the finished run's events go; the failed
      // run keeps its own (nothing of it was committed: they are all there is of it), so does the
      // run still in progress, and every record stays as it was.
      const later = await db.open({ now: () => Date.now() + 61_000 });
      try {
        expect(await later.dropRunEvents(60_000)).toBe(2);
        expect(await later.dropRunEvents(60_000)).toBe(0);
      } finally {
        await later.close();
      }
      expect(await store.runEvents("done")).toEqual([]);
      expect((await store.runEvents("broke")).map((e) => e.seq)).toEqual([1, 2, 3]);
      expect((await store.runEvents("going")).map((e) => e.seq)).toEqual([1, 2, 3]);
      expect(await store.run("done")).toMatchObject({ status: "finished", lastSeq: 3, user: "done" });
      expect(await store.run("broke")).toMatchObject({ status: "failed", lastSeq: 3 });
    }));

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
}
