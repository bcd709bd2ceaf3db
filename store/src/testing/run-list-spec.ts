/**
 * The store suite's list of runs over every thread (`listRuns`): newest first, paged, with the
 * status a person reads, the error a run ended with, and its filters.
 */
import type { Lease, Store } from "../types.js";
import { echoAgent } from "./echo-agent.js";
import { type Backend, heldTurn, talk, withStore } from "./suite-support.js";
import type { TestApi } from "./test-api.js";

/** Registers the run-list tests for the store `backend` opens (storeSuite puts them with the others). */
export function runListTests(backend: Backend, { it, expect }: TestApi): void {
  it("lists the runs of every thread, newest first, paged, with their status and error", () => {
    let clock = 1_000_000;
    return withStore(
      backend,
      async (store) => {
        await talk(store, "a", 1);
        const committed = await committedRun(store, "a");
        clock += 1000;
        const failed = await endedRun(store, "a", "model_error", "the model is down: 502 Bad Gateway");
        clock += 1000;
        const stopped = await endedRun(store, "a", "stopped", "the run was stopped by its client");
        clock += 1000;
        const running = await store.beginRun({ lease: await store.acquire("b"), user: "still going" });

        const all = await store.listRuns();
        expect(all.next).toBeNull();
        expect(all.runs.map((r) => [r.id, r.status])).toEqual([
          [running.id, "running"],
          [stopped, "stopped"],
          [failed, "failed"],
          [committed, "committed"],
        ]);
        expect(all.runs[3]).toMatchObject({
          threadId: "a",
          agent: "Echo",
          user: "hello",
          turn: 3,
          turnStatus: "ok",
          error: null,
        });
        // heldTurn gives its turn the real time it started; the store's clock commits it.
        expect([typeof all.runs[3]!.turnStartedAt, all.runs[3]!.committedAt]).toEqual(["number", 1_000_000]);
        expect("trace" in all.runs[3]!).toBe(false);
        expect(all.runs[2]).toMatchObject({
          turnStatus: null,
          turnStartedAt: null,
          committedAt: null,
          error: { code: "model_error", message: "the model is down: 502 Bad Gateway" },
        });
        expect(all.runs[0]).toMatchObject({ agent: null, user: "still going", error: null });

        // A page at a time, each going on after the last one given.
        const first = await store.listRuns({ limit: 3 });
        expect(first.runs.map((r) => r.id)).toEqual([running.id, stopped, failed]);
        const second = await store.listRuns({ limit: 3, after: first.next! });
        expect(second).toMatchObject({ runs: [{ id: committed }], next: null });

        const ids = async (query: Parameters<Store["listRuns"]>[0]) =>
          (await store.listRuns(query)).runs.map((r) => r.id);
        expect(await ids({ status: ["failed", "stopped"] })).toEqual([stopped, failed]);
        expect(await ids({ status: [] })).toEqual([]);
        expect(await ids({ error: "BAD gateway" })).toEqual([failed]);
        expect(await ids({ error: "100%_" })).toEqual([]);
        expect(await ids({ agent: "Echo" })).toEqual([stopped, failed, committed]);
        expect(await ids({ agent: "Other" })).toEqual([]);
        expect(await ids({ since: 1_001_000, until: 1_003_000 })).toEqual([stopped, failed]);
        const [withTrace] = (await store.listRuns({ status: ["committed"], withTrace: true })).runs;
        // heldTurn commits an empty trace: read from the turn, not null as for a run without one.
        expect(withTrace!.trace).toEqual([]);

        // Seen from later than its lease's lifetime, the run in progress is abandoned.
        clock += 60_000;
        expect(await ids({ status: ["abandoned"] })).toEqual([running.id]);
      },
      { now: () => clock },
    );
  });

  it("refuses a query it cannot answer, naming the field", () =>
    withStore(backend, async (store) => {
      await expect(store.listRuns({ limit: 0 })).rejects.toMatchObject({ code: "bad_request", message: /^limit: / });
      await expect(store.listRuns({ after: "nonsense" })).rejects.toMatchObject({ message: /^after: / });
      await expect(store.listRuns({ status: ["done" as "failed"] })).rejects.toMatchObject({ message: /^status: / });
      await expect(store.listRuns({ since: 1.5 })).rejects.toMatchObject({ message: /^since: / });
    }));
}

/** A run that commits a turn of thread `id` and then finishes. */
async function committedRun(store: Store, id: string): Promise<string> {
  let runId = "";
  await heldTurn(store, echoAgent(), id, "hello", async (lease: Lease) => {
    runId = (await store.beginRun({ lease, user: "hello" })).id;
  });
  await store.appendRunEvents(runId, [{ seq: 1, event: { type: "run-finish" } }], "finished");
  return runId;
}

/** A run of thread `id` that ends with a `run-error` as the server writes it, committing nothing. */
async function endedRun(store: Store, id: string, code: string, message: string): Promise<string> {
  const lease = await store.acquire(id);
  const run = await store.beginRun({ lease, user: "try" });
  await store.appendRunEvents(
    run.id,
    [
      { seq: 1, event: { type: "run-start" } },
      { seq: 2, event: { type: "run-error", code, message } },
    ],
    "failed",
  );
  await store.release(lease);
  return run.id;
}
