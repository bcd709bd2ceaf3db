// Turns played off the HTTP thread, under per-turn budgets: the turn pool's routing (a thread's
// turns to its warm worker), a worker that dies replaced, the budgets in a worker and in the
// server's own thread, step events with large values omitted, and SSE that waits for its client.
import { afterAll, describe, expect, it, vi } from "vitest";
import { readFileSync } from "node:fs";
import { inflateRawSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { compile } from "@autograms/compiler";
import { Agent, OfflineModel, type Graph } from "@autograms/runtime";
import { InProcessPlayer, MAX_VALUE_BYTES, TurnPool, type PlayRequest } from "@autograms/server";
import type { TurnPlayer } from "../../server/src/workers/turn-player.js";
import type { PlayedResult } from "../../server/src/workers/protocol.js";
import { boundedStep } from "../../server/src/workers/bounded-step.js";
import { sseResponse } from "../../server/src/http/sse.js";
import { COMPUTE_STEPS, MAX_COMPUTE_STEPS } from "../../server/src/runs/bounded-steps.js";
import { LiveRun } from "../../server/src/runs/live-run.js";
import { acquireTurn, openStore, type Store, type StoredTraceEvent } from "@autograms/store";
import { join } from "node:path";
import { readUntil, settled, sseFrames, startTestServer, tempFolder, type TestServer } from "./support/harness.js";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/pool/${name}`, import.meta.url));
const { graph } = compile(readFileSync(fixture("agent.ts"), "utf8"), { fileName: fixture("agent.ts") });
const folder = tempFolder("autograms-workers-");
const pools: TurnPool[] = [];
const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all([...pools.map((p) => p.close()), ...servers.map((s) => s.close())]);
  folder.remove();
});

function pool(size: number, budgets = {}): TurnPool {
  const p = new TurnPool({ script: fixture("worker.mjs"), data: { graph }, size, budgets });
  pools.push(p);
  return p;
}

const request = (
  threadId: string,
  text: string | null,
  memory: PlayRequest["memory"] = null,
  signal = new AbortController().signal,
): PlayRequest => ({ threadId, text, memory, signal, onStep: () => {}, onText: () => {} });

/** The trace a turn played, from its packed bytes (deflated JSON, as a store's row keeps it). */
const traceOf = (played: PlayedResult): StoredTraceEvent[] =>
  JSON.parse(inflateRawSync(played.packed.trace).toString("utf8"));

describe("a turn pool", () => {
  it("plays a thread's turns on the worker of its last one while another thread's go to the idle worker", async () => {
    // A time budget of 2 s: the long turn's end is not the test's subject, and the default waits 10.
    const p = pool(2, { timeMs: 2_000 });
    await p.ready();
    const first = await p.play(request("a", null));
    const workers = new Set<string | null>();
    let memory = first.memory;
    for (let i = 0; i < 4; i++) {
      const played = await p.play(request("a", "who?", memory));
      workers.add(played.reply);
      memory = played.memory;
    }
    expect(workers.size).toBe(1);
    expect([...workers][0]).toMatch(/^worker [1-9]\d*$/);
    // While "a" plays a long turn, "b" is played beside it, on the other worker.
    const long = p.play(request("a", "loop", memory)).catch((e: { code?: string }) => e.code);
    await new Promise((r) => setTimeout(r, 100));
    const b = await p.play(request("b", "who?", first.memory));
    expect(b.reply).not.toBe([...workers][0]);
    expect(await long).toBe("time_budget");
  });

  it("sends a turn to another worker when the thread's warm one is the busier by far", async () => {
    const p = pool(2, { timeMs: 1_000 });
    await p.ready();
    // Four threads warm on one worker (an idle pool gives each the first).
    const played = new Map<string, Awaited<ReturnType<TurnPool["play"]>>>();
    for (const id of ["a", "b", "c", "d"]) {
      const opening = await p.play(request(id, null));
      played.set(id, await p.play(request(id, "who?", opening.memory)));
    }
    const first = played.get("a")!.reply;
    expect(new Set([...played.values()].map((t) => t.reply))).toEqual(new Set([first]));
    const loop = (id: string) => p.play(request(id, "loop", played.get(id)!.memory)).catch(() => undefined);
    const since = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const loops = [loop("a")];
    await since(300);
    loops.push(loop("b")); // its warm worker has a long turn, the other none: the other
    loops.push(loop("c")); // one turn each, neither long yet: the warm one
    await since(300);
    // The warm worker has two long turns, the other one: "d" goes to the other.
    const d = await p.play(request("d", "who?", played.get("d")!.memory));
    expect(d.reply).not.toBe(first);
    await Promise.all(loops);
    // Three more threads warm on the first worker (idle again), two of them waiting for their tool
    // there: two turns more than the other worker, neither long yet, so the third goes to the other.
    for (const id of ["e", "f", "g"]) {
      const opening = await p.play(request(id, null));
      played.set(id, await p.play(request(id, "who?", opening.memory)));
      expect(played.get(id)!.reply).toBe(first);
    }
    const waits = ["e", "f"].map((id) => p.play(request(id, "wait", played.get(id)!.memory)));
    expect((await p.play(request("g", "who?", played.get("g")!.memory))).reply).not.toBe(first);
    expect((await Promise.all(waits)).map((t) => t.reply)).toEqual([first, first]);
  });

  it("sends a turn's first MAX_COMPUTE_STEPS compute steps and counts the rest; steps that talk all go", async () => {
    const p = pool(1);
    await p.ready();
    const { memory } = await p.play(request("a", null));
    const steps: StoredTraceEvent[] = [];
    const played = await p.play({ ...request("a", "many", memory), onStep: (s) => steps.push(s.event) });
    const sent = steps.map((e) => e.kind);
    const trace = traceOf(played);
    // Each step crosses as its JSON text and is read back as it was played.
    expect(steps.slice(0, 500)).toEqual(trace.slice(0, 500));
    const computed = trace.filter((e) => COMPUTE_STEPS.has(e.kind)).length;
    expect(computed).toBeGreaterThan(MAX_COMPUTE_STEPS);
    expect(sent.filter((k) => COMPUTE_STEPS.has(k)).length).toBe(MAX_COMPUTE_STEPS);
    expect(played.omittedSteps).toBe(computed - MAX_COMPUTE_STEPS);
    // The reply's step comes after the loop: it is sent all the same.
    expect(sent.filter((k) => !COMPUTE_STEPS.has(k))).toEqual(
      trace.filter((e) => !COMPUTE_STEPS.has(e.kind)).map((e) => e.kind),
    );
    // The whole trace comes back packed for the commit, as bytes (transferred: no clone of its steps).
    expect(played.packed.trace).toBeInstanceOf(Uint8Array);
    expect(played.replyNode).toMatch(/who$/);
  });

  it("sends a thread's memory to the worker that holds it from the last turn only as its checksum", async () => {
    const p = pool(1);
    await p.ready();
    const sent: { type: string; id?: number; memory?: unknown; kept?: string }[] = [];
    for (const slot of (p as unknown as { slots: { worker: { postMessage: (m: never) => void } }[] }).slots) {
      const post = slot.worker.postMessage.bind(slot.worker);
      slot.worker.postMessage = (m: never) => (sent.push(m), post(m));
    }
    const plays = () => sent.filter((m) => m.type === "play").map((m) => [m.kept !== undefined, m.memory === null]);
    const first = await p.play(request("a", null));
    const second = await p.play(request("a", "one", first.memory));
    const third = await p.play(request("a", "two", second.memory));
    // An older memory (the thread went back, another process committed): sent whole.
    const again = await p.play(request("a", "three", first.memory));
    expect(plays()).toEqual([
      [false, true],
      [true, true],
      [true, true],
      [false, false],
    ]);
    expect([second.memory.turn, third.memory.turn, again.memory.turn]).toEqual([2, 3, 2]);
    expect(again.memory.stack[0]!.vars._last_user_reply).toBe("three");

    // A worker that no longer holds it (it keeps the 100 threads it played last) asks for it whole.
    sent.length = 0;
    for (let i = 0; i < 100; i++) await p.play(request(`other-${i}`, null));
    const after = await p.play(request("a", "four", again.memory));
    expect(after.memory.turn).toBe(3);
    expect(after.memory.stack[0]!.vars._last_user_reply).toBe("four");
    expect(plays().slice(-2)).toEqual([
      [true, true],
      [false, false],
    ]);
  });

  it("counts the steps it did not send of a turn that fails too", async () => {
    // Time enough for more compute steps than a stream takes (2,000) on a machine busy with other
    // tests: the budget counts the wall time of the turn's synchronous slices.
    const p = pool(1, { timeMs: 2000 });
    await p.ready();
    const { memory } = await p.play(request("a", null));
    const err = (await p.play(request("a", "loop", memory)).catch((e: unknown) => e)) as {
      code?: string;
      omittedSteps?: number;
    };
    expect(err.code).toBe("time_budget");
    expect(err.omittedSteps).toBeGreaterThan(0);
  });

  it("sends a turn's steps as soon as it waits, however quickly it took them", async () => {
    const p = pool(1);
    await p.ready();
    let { memory } = await p.play(request("a", null));
    for (let i = 0; i < 3; i++) memory = (await p.play(request("a", "who?", memory))).memory;
    // The worker is warm: the turn takes its steps up to its tool (which waits 300 ms) within a
    // millisecond or two, then waits. Its clients see those steps then, not once the tool returns.
    const start = performance.now();
    let firstStep = Number.POSITIVE_INFINITY;
    const played = await p.play({
      ...request("a", "wait", memory),
      onStep: () => (firstStep = Math.min(firstStep, performance.now() - start)),
    });
    expect(played.reply).toMatch(/^worker \d+$/);
    expect(performance.now() - start).toBeGreaterThanOrEqual(300);
    expect(firstStep).toBeLessThan(150);
  });

  it("stops a turn in its worker when its signal aborts; the worker plays on", async () => {
    const p = pool(1, { timeMs: 60_000 });
    await p.ready();
    const { memory } = await p.play(request("a", null));
    const stop = new AbortController();
    const long = p.play(request("a", "loop", memory, stop.signal));
    await new Promise((r) => setTimeout(r, 200));
    stop.abort(new Error("stopped by the test"));
    await expect(long).rejects.toThrow("stopped by the test");
    const start = performance.now();
    expect((await p.play(request("a", "who?", memory))).reply).toMatch(/^worker \d+$/);
    expect(performance.now() - start).toBeLessThan(5000);
  });

  it("fails the turns of a worker that dies, cleanly, and replaces it", async () => {
    const p = pool(1, { timeMs: 60_000 });
    await p.ready();
    const { memory } = await p.play(request("a", null));
    const before = (await p.play(request("a", "who?", memory))).reply;
    const stop = new AbortController();
    const long = p.play(request("a", "loop", memory, stop.signal));
    // The worker's heap limit, a tool that exits its thread, terminate(): all the same to the pool.
    await new Promise((r) => setTimeout(r, 200));
    await (p as unknown as { slots: { worker: { terminate(): Promise<number> } }[] }).slots[0]!.worker.terminate();
    await expect(long).rejects.toMatchObject({
      code: "worker_lost",
      message: expect.stringMatching(/worker thread running it exited.*nothing was committed/),
    });
    const after = (await p.play(request("a", "who?", memory))).reply;
    expect(after).toMatch(/^worker \d+$/);
    expect(after).not.toBe(before);
  });

  it("hands back memory that cannot change, which the store keeps for the thread's next turn", async () => {
    const p = pool(1);
    await p.ready();
    const store = await openStore(`sqlite:${join(folder.path, "kept.db")}`);
    try {
      let memory: PlayRequest["memory"] = null;
      for (const text of [null, "who?"]) {
        const { held } = await acquireTurn(store, "kept", text);
        expect(held!.memory).toBe(memory);
        const played = await p.play(request("kept", text, held!.memory));
        expect(Object.isFrozen(played.memory.stack.at(-1)!.turns.at(-1))).toBe(true);
        await held!.commit({ ...played, startedAt: Date.now() });
        memory = played.memory;
      }
      expect((await store.load("kept")).memory).toBe(memory);
    } finally {
      await store.close();
    }
  });

  it("runs its turns without async hooks unless the pool shares tools with its workers", async () => {
    // Entered once, the storage that ties a shared tool's calls to their turn makes every promise
    // of the thread pay for async hooks: a thread with no shared tool never enters it.
    const reply = async (tools?: Record<string, () => number>) => {
      const p = new TurnPool({
        script: fixture("hooks-worker.mjs"),
        data: { graph },
        size: 1,
        ...(tools && { tools }),
      });
      pools.push(p);
      const { memory } = await p.play(request("a", null));
      return (await p.play(request("a", "who?", memory))).reply;
    };
    expect(await reply()).toBe("worker without async hooks");
    // From Node 24 AsyncLocalStorage keeps its store in the async context frame, without async
    // hooks: there the storage costs a turn nothing either way; before 24 it turns them on.
    const storageUsesHooks = Number(process.versions.node.split(".")[0]) < 24;
    expect(await reply({ shared: () => 1 })).toBe(
      storageUsesHooks ? "worker with async hooks" : "worker without async hooks",
    );
  });

  it("refuses budgets that are not positive numbers, and says why a worker script cannot serve", async () => {
    expect(() => new TurnPool({ script: fixture("worker.mjs"), budgets: { timeMs: 0 } })).toThrow(
      /workers.budgets.timeMs takes a number above 0, not 0/,
    );
    const bad = new TurnPool({ script: fixture("worker.mjs"), data: { graph: { not: "a graph" } }, size: 1 });
    pools.push(bad);
    await expect(bad.ready()).rejects.toThrow(/worker\.mjs could not make the agent: the graph is not valid/);
  });
});

/** A pool given the agent made in this thread too (its tool says thread 0, a worker's its own); `workerGraph`: the workers'. */
function inlinePool(size: number, timeMs: number, workerGraph: unknown = graph): TurnPool {
  const here = new Agent(graph as Graph, { model: new OfflineModel(), tools: { whoami: () => 0 } });
  const p = new TurnPool({
    script: fixture("worker.mjs"),
    data: { graph: workerGraph },
    size,
    budgets: { timeMs },
    inline: here,
  });
  pools.push(p);
  return p;
}

describe("a pool given an agent of this thread too (inline)", () => {
  it("plays the turns here until one proves CPU-heavy; that thread's go to a worker, the others' stay", async () => {
    const p = inlinePool(1, 1000);
    await p.ready();
    const opened = (await p.play(request("a", null))).memory;
    const steps: string[] = [];
    const played = await p.play({ ...request("a", "who?", opened), onStep: (s) => steps.push(s.event.kind) });
    expect(played.reply).toBe("worker 0");
    // Its steps stream as a worker's do, and its trace is packed for the commit.
    expect(steps).toEqual(traceOf(played).map((e) => e.kind));
    const looped = await p.play(request("a", "loop", played.memory)).catch((e: { code?: string }) => e);
    expect(looped).toMatchObject({ code: "time_budget" });
    // The loop yielded to the event loop between its slices and was stopped by its budget; the
    // thread's next turns are played in the worker.
    const moved = await p.play(request("a", "who?", played.memory));
    expect(moved.reply).toMatch(/^worker [1-9]\d*$/);
    expect(moved.memory.turn).toBe(played.memory.turn + 1);
    const other = (await p.play(request("b", null))).memory;
    expect((await p.play(request("b", "who?", other))).reply).toBe("worker 0");
  });
});

describe("a pool given an agent of this thread too, its workers not yet started", () => {
  it("starts them when a turn first proves CPU-heavy: that thread's turns go to them, the others answer meanwhile", async () => {
    // A time budget long enough for the workers to start on a loaded machine while the loop still runs.
    const p = inlinePool(2, 5000);
    await p.ready();
    // Turns that wait for their model start no worker, and the pool is ready without one.
    const a = (await p.play(request("a", null))).memory;
    const b = (await p.play(request("b", null))).memory;
    expect((await p.play(request("b", "who?", b))).reply).toBe("worker 0");
    expect([p.liveThreads, p.unready()]).toEqual([0, undefined]);

    let loopEnded = false;
    const looped = p.play(request("a", "loop", a)).catch((e: { code?: string }) => e);
    void looped.then(() => (loopEnded = true));
    // The loop proves CPU-heavy in this thread: the pool starts its workers then, not at its next turn.
    await expect.poll(() => p.liveThreads, { timeout: 4000 }).toBe(2);
    // While it computes, another thread's turn goes to a worker (waiting for it to start) and is
    // answered before the loop is stopped.
    const during = await p.play(request("b", "who?", b));
    expect(during.reply).toMatch(/^worker [1-9]\d*$/);
    expect(loopEnded).toBe(false);
    expect(await looped).toMatchObject({ code: "time_budget" });
    // The looping thread's next turns are the workers'; the pool is ready.
    const moved = await p.play(request("a", "who?", a));
    expect(moved.reply).toMatch(/^worker [1-9]\d*$/);
    expect([p.liveThreads, p.unready()]).toEqual([2, undefined]);
  });

  it("says why its workers cannot start when a turn needs one, and fails that turn with a clear error", async () => {
    // The workers cannot make this agent: the one in this thread plays until a turn needs them.
    const p = inlinePool(1, 2000, { not: "a graph" });
    await p.ready();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const a = (await p.play(request("a", null))).memory;
      expect(p.unready()).toBeUndefined();
      expect(await p.play(request("a", "loop", a)).catch((e: { code?: string }) => e)).toMatchObject({
        code: "time_budget",
      });
      await expect
        .poll(() => p.unready(), { timeout: 3000 })
        .toMatch(/^0 of 1 worker threads serve; a new one could not be started \(.*the graph is not valid/);
      // Tried again with backoff: that thread's turns fail at once meanwhile (`no_worker`), or with
      // the worker that is trying, both saying why; the others' are still played here.
      const failed = await p.play(request("a", "who?", a)).catch((e: Error) => e);
      expect(failed).toMatchObject({
        message: expect.stringMatching(/worker\.mjs could not make the agent: the graph is not valid/),
      });
      const b = (await p.play(request("b", null))).memory;
      expect((await p.play(request("b", "who?", b))).reply).toBe("worker 0");
      expect(
        logged.mock.calls.filter(([m]) => /^autograms: a worker thread could not be started \(/.test(String(m))),
      ).toHaveLength(1);
    } finally {
      logged.mockRestore();
    }
  });
});

describe("a new build with a pool of its own (serve)", () => {
  it("sends the turns that start after it to the new pool, lets a run in progress finish on the old one, then closes the old one", async () => {
    const agent = new Agent(graph as Graph, { model: new OfflineModel(), tools: { whoami: () => 0 } });
    const first = pool(1);
    const s = await startTestServer(folder.path, { agent, workers: first });
    servers.push(s);
    const post = (thread: string, message: string | null) =>
      fetch(`${s.url}/api/threads/${thread}/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message }),
      });
    const reply = async (res: Response) =>
      sseFrames(res).then(
        (frames) => frames.map((f) => JSON.parse(f.data).event).find((e) => e.type === "run-finish")?.reply,
      );
    const workers = async () =>
      Number(/^autograms_worker_threads (\d+)$/m.exec(await (await fetch(`${s.url}/metrics`)).text())![1]);
    await (await post("a", null)).text();
    await (await post("b", null)).text();
    const oldWorker = await reply(await post("a", "who?"));
    const second = pool(1);
    await second.ready();
    // Thread a's run waits 300 ms for its tool while the build changes under it.
    await readUntil(await post("a", "wait"), (f) => f.event === "run-start");
    s.server.serve({ agent, pool: second });
    expect(s.server.ctx.agents.liveWorkerThreads).toBe(2);
    const newWorker = await reply(await post("b", "who?"));
    expect(newWorker).not.toBe(oldWorker);
    await settled(s, "a", 3);
    expect((await s.store.turns("a")).at(-1)!.reply).toBe(oldWorker);
    // The old pool ends once its last run has: its worker exits.
    const deadline = Date.now() + 5000;
    while ((await workers()) > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect([await workers(), first.liveThreads, second.liveThreads]).toEqual([1, 0, 1]);
    expect(await reply(await post("a", "who?"))).toBe(newWorker);
    // What a turn sent is replayed in this thread from its recording, its tool called from code
    // answered as recorded (the workers hold the tool; this thread never calls it).
    const calls = await (await fetch(`${s.url}/api/threads/a/turns/2/calls`)).json();
    expect(calls).toMatchObject({ seq: 2, user: "who?", stopped: null });
    expect(calls.events).toContainEqual(expect.objectContaining({ kind: "tool_call", tool: "whoami", round: 0 }));
    // A build played in workers comes with the pool that made it; one played in this thread never does.
    expect(() => s.server.serve({ agent })).toThrow(/give the new build's TurnPool with it/);
  });
});

describe("budgets in the server's own thread", () => {
  it("stop an endless loop with time_budget, the thread as it was, and the server answers meanwhile", async () => {
    const agent = new Agent(graph as Graph, { model: new OfflineModel(), tools: { whoami: () => 0 } });
    const s = await startTestServer(folder.path, { agent, budgets: { timeMs: 1000 } });
    servers.push(s);
    const post = (message: string | null) =>
      fetch(`${s.url}/api/threads/t/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message }),
      });
    await (await post(null)).text();
    const looping = post("loop").then((r) => sseFrames(r));
    let answered = 0;
    let slowest = 0;
    let done = false;
    void looping.finally(() => (done = true));
    while (!done) {
      const start = performance.now();
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
      slowest = Math.max(slowest, performance.now() - start);
      answered++;
      await new Promise((r) => setTimeout(r, 50));
    }
    // The loop gives the event loop back between its slices: the probe never waits for its end.
    expect(slowest).toBeLessThan(1000);
    const events = (await looping).map((f) => JSON.parse(f.data).event);
    expect(events.at(-1)).toMatchObject({
      type: "run-error",
      code: "time_budget",
      message: expect.stringMatching(/over its time budget of 1000 ms/),
    });
    expect(answered).toBeGreaterThan(3);
    expect((await s.store.thread("t"))?.version).toBe(1);
    expect(await (await post("who?")).text()).toContain('"reply":"worker 0"');
  });
});

describe("stopping a run", () => {
  it("aborts its turn where it is played: it ends with stopped, nothing committed, the thread free", async () => {
    const agent = new Agent(graph as Graph, { model: new OfflineModel(), tools: { whoami: () => 0 } });
    const s = await startTestServer(folder.path, { agent, budgets: { timeMs: 60_000 } });
    servers.push(s);
    const post = (message: string | null) =>
      fetch(`${s.url}/api/threads/t/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message }),
      });
    await (await post(null)).text();
    const [start] = await readUntil(await post("loop"), (f) => f.event === "run-start");
    const { runId } = JSON.parse(start!.data).event;
    const stoppedAt = performance.now();
    expect(s.server.ctx.runs.stop(runId)).toBe(true);
    while ((await s.store.run(runId))?.status !== "failed") await new Promise((r) => setTimeout(r, 20));
    expect(performance.now() - stoppedAt).toBeLessThan(5000);
    const events = (await s.store.runEvents(runId)).map((e) => e.event as { type: string });
    expect(events.at(-1)).toMatchObject({
      type: "run-error",
      code: "stopped",
      message: "the run was stopped before it finished; nothing was committed",
    });
    expect(s.server.ctx.runs.stop(runId)).toBe(false);
    expect((await s.store.thread("t"))?.version).toBe(1);
    expect(await (await post("who?")).text()).toContain('"reply":"worker 0"');
  });
});

describe("a run's stream", () => {
  const lease = { threadId: "t", token: "x", owner: "test", version: 0, messageId: null, ttlMs: 10_000 };
  const agent = new Agent(graph as Graph, { model: new OfflineModel(), tools: { whoami: () => 0 } });
  /** A run whose turns `player` plays, its steps pushed as they come: the compute steps in its stream, and its end. */
  async function runOf(player: TurnPlayer, messages: (string | null)[], stored: number[] = []) {
    const store = {
      appendRunEvents: async (_id: string, events: unknown[]) => (stored.push(events.length), true),
    } as unknown as Store;
    const run = new LiveRun("r", "t", { lease, user: "go" }, store, 10);
    let memory: PlayRequest["memory"] = null;
    let computed = 0;
    const talked: string[] = [];
    for (const text of messages) {
      const played = await player.play({
        ...request("t", text, memory),
        steps: run.steps,
        onStep: (step) => run.push(step),
      });
      const trace = traceOf(played);
      computed += trace.filter((e) => COMPUTE_STEPS.has(e.kind)).length;
      talked.push(...trace.filter((e) => !COMPUTE_STEPS.has(e.kind)).map((e) => e.kind));
      memory = played.memory;
    }
    run.push({ type: "run-error", code: "time_budget", message: "over" });
    await run.stored;
    const kinds = run.events.flatMap(({ event }) => (event.type === "step" ? [event.event.kind] : []));
    const sent = kinds.filter((k) => COMPUTE_STEPS.has(k)).length;
    return { run, computed, sent, talked, sentTalking: kinds.filter((k) => !COMPUTE_STEPS.has(k)) };
  }

  it("sends its first 2,000 compute steps, then counts them in its end; steps that talk always go", async () => {
    const stored: number[] = [];
    const { run, computed, sent, talked, sentTalking } = await runOf(
      new InProcessPlayer(agent),
      [null, "many"],
      stored,
    );
    expect(computed).toBeGreaterThan(MAX_COMPUTE_STEPS);
    expect(sent).toBe(MAX_COMPUTE_STEPS);
    // The reply's step comes after the loop: it is sent all the same.
    expect(sentTalking).toEqual(talked);
    expect(run.events.at(-1)!.event).toEqual({
      type: "run-error",
      code: "time_budget",
      message: "over",
      omittedSteps: computed - MAX_COMPUTE_STEPS,
    });
    // Stored in transactions of at most 500 events.
    expect(Math.max(...stored)).toBeLessThanOrEqual(500);
    expect(stored.reduce((a, b) => a + b, 0)).toBe(run.events.length);
  });

  it("is bounded across the run's turns played in a worker thread, counted there once", async () => {
    const p = pool(1);
    await p.ready();
    const { run, computed, sent, talked, sentTalking } = await runOf(p, [null, "many", "many"]);
    expect(computed).toBeGreaterThan(2 * MAX_COMPUTE_STEPS);
    expect(sent).toBe(MAX_COMPUTE_STEPS);
    expect(sentTalking).toEqual(talked);
    expect(run.events.at(-1)!.event).toMatchObject({ type: "run-error", omittedSteps: computed - MAX_COMPUTE_STEPS });
  });
});

describe("a step event in a run's stream", () => {
  it("carries values above the threshold as their size and digest, the rest as they are", () => {
    const big = "x".repeat(MAX_VALUE_BYTES);
    const { event, bytes } = boundedStep({
      kind: "code",
      node: "n",
      stack: ["main"],
      value: 1,
      code: "s = s + 'x'",
      changes: [
        { name: "s", before: big.slice(10), after: big },
        { name: "i", before: 1, after: 2 },
      ],
    });
    expect(event.changes).toEqual([
      {
        name: "s",
        before: big.slice(10),
        after: { $omitted: { bytes: MAX_VALUE_BYTES + 2, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } },
      },
      { name: "i", before: 1, after: 2 },
    ]);
    expect(event.value).toBe(1);
    expect(bytes).toBeGreaterThan(2 * MAX_VALUE_BYTES);
  });
});

describe("an SSE response", () => {
  it("reads frames from its source only as fast as its client reads them", async () => {
    let made = 0;
    async function* frames() {
      for (let id = 1; id <= 100_000; id++) {
        made++;
        yield { id, data: JSON.stringify({ pad: "y".repeat(200) }) };
      }
    }
    const res = sseResponse(() => frames(), {});
    const reader = res.body!.getReader();
    await reader.read();
    await new Promise((r) => setTimeout(r, 200));
    // The chunk read (8 KiB of ~230-byte frames) and the frame after it; the rest wait in their source.
    expect(made).toBeLessThan(100);
    await reader.cancel();
  });
});
