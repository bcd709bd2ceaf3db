// Real `autograms serve` processes on one store (Postgres, and SQLite on one machine): messages
// of many threads spread at random across them while one is killed with SIGKILL and started
// again, clients sending a message again with the same id until it is answered: every thread
// then holds exactly its turns, in order. A run executing on one process streams to a client of
// another, live and resumed; a second message for a busy thread waits across processes; SIGTERM
// drains a process. The full-size runs (4 processes, 1,000 threads x 10 turns, a kill every few
// seconds) are `npm run test:scale` (test/scale/*.scale.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "@autograms/store";
import { cliTestFolder } from "../cli/support/run-cli.js";
import { slowModelAndPostgres, type SlowModel } from "../store/support/slow-model.js";
import type { PostgresServer } from "../store/support/postgres-server.mjs";
import { sseFrames, type Frame } from "../server/support/harness.js";
import { audit, Cluster, describeLoad, runLoad, writeEchoGraph } from "./support/cluster.mjs";
import { queued } from "./support/waiters.js";

const folder = cliTestFolder("autograms-scale-cluster-");
const servers = slowModelAndPostgres();
let model: SlowModel;
let postgres: PostgresServer;
beforeAll(() => {
  [model, postgres] = [servers.model(), servers.postgres()];
});

const LOAD = { threads: 50, turns: 3 };
const LEASE_MS = 1500;

const post = (url: string, thread: string, message: string, messageId: string) =>
  fetch(`${url}/api/threads/${thread}/runs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message, messageId }),
  });

/** Reads a streaming response's frames until `until` holds for one; the rest stays unread. */
async function framesUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  seen: { text: string },
  until: (f: Frame) => boolean,
): Promise<Frame[]> {
  const decoder = new TextDecoder();
  for (;;) {
    const frames = await sseFrames(new Response(seen.text.slice(0, seen.text.lastIndexOf("\n\n") + 2)));
    if (frames.some(until)) return frames;
    const { done, value } = await reader.read();
    if (done) return sseFrames(new Response(seen.text));
    seen.text += decoder.decode(value, { stream: true });
  }
}

describe.each([
  { kind: "Postgres", processes: 2, threads: LOAD.threads },
  // SQLite takes several processes on one machine (each commit holds the file's write lock);
  // events reach another process's clients by polling.
  { kind: "SQLite", processes: 2, threads: 20 },
])("$kind: $processes serve processes on one store", { timeout: 120_000 }, ({ kind, processes, threads }) => {
  let cluster: Cluster;
  let store: Store;
  let storeUrl: string;
  beforeAll(async () => {
    storeUrl = kind === "Postgres" ? await postgres.newDatabase() : `sqlite:${folder()}/threads.db`;
    const graph = writeEchoGraph(folder());
    cluster = await new Cluster({
      graph,
      cwd: folder(),
      env: model.env,
      args: [
        ...model.flags,
        "--store",
        storeUrl,
        "--lease-ms",
        String(LEASE_MS),
        "--busy",
        "enqueue",
        "--grace-ms",
        "20000",
      ],
    }).start(processes);
    store = await openStore(storeUrl);
  });
  afterAll(async () => {
    await cluster?.stop();
    await store?.close();
  });

  it("answers each message of every thread exactly once and in order, while a process is killed mid-turn and restarted", async () => {
    const shape = { threads, turns: LOAD.turns, prefix: "load" };
    const loading = runLoad(() => cluster.urls, shape);
    // Kill a process once a third of the turns are committed: it is in the middle of some.
    while ((await store.listThreads()).reduce((n, t) => n + t.version, 0) < (threads * (LOAD.turns + 1)) / 3) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await cluster.killAndRestart(0);
    const result = await loading;
    console.log(
      describeLoad(`${kind}, ${processes} processes, ${threads} threads x ${LOAD.turns} turns, 1 SIGKILL`, result),
    );
    expect(await audit(store, shape)).toEqual({
      threads,
      turns: threads * (LOAD.turns + 1),
      lost: 0,
      duplicated: 0,
      outOfOrder: 0,
      other: 0,
    });
  });

  it("streams a run executing on one process to a client of another, live, and resumes it there after a frame number", async () => {
    const [a, b] = cluster.urls;
    model.reset();
    await (await post(b!, "across", "hello", "across-1")).text();
    const onB = post(b!, "across", "a slow one", "across-2");
    await model.held();
    // Connected to A while the run waits for the model on B: A relays what B stores, as it comes.
    const res = await fetch(`${a}/api/threads/across/runs/latest/stream`);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const seen = { text: "" };
    const early = await framesUntil(reader, seen, (f) => f.event === "step");
    expect(early[0]).toMatchObject({ id: expect.stringMatching(/:1$/), event: "run-start" });
    expect(early.some((f) => f.event === "run-finish")).toBe(false);
    model.release();
    const fromA = await framesUntil(reader, seen, (f) => f.event === "run-finish");
    const fromB = await sseFrames(await onB);
    expect(fromA).toEqual(fromB);
    expect(JSON.parse(fromB.at(-1)!.data).event).toMatchObject({
      type: "run-finish",
      turn: 3,
      reply: "echo: a slow one",
    });
    const rest = await sseFrames(
      await fetch(`${a}/api/threads/across/runs/latest/stream`, { headers: { "last-event-id": fromB[1]!.id } }),
    );
    expect(rest).toEqual(fromB.slice(2));
  });

  it("a second and a third message for a busy thread, to other processes, wait their turn (--busy enqueue)", async () => {
    const [a, b] = cluster.urls;
    model.reset();
    const first = post(a!, "double", "slow, the first", "double-1");
    await model.held();
    const second = post(b!, "double", "the second", "double-2");
    await queued(storeUrl, "double", 1);
    const third = post(a!, "double", "the third", "double-3");
    await queued(storeUrl, "double", 2);
    model.release();
    const ends = await Promise.all(
      [first, second, third].map(async (r) => JSON.parse((await sseFrames(await r)).at(-1)!.data).event),
    );
    expect(ends.map((e) => [e.type, e.turn])).toEqual([
      ["run-finish", 2],
      ["run-finish", 3],
      ["run-finish", 4],
    ]);
    expect((await store.turns("double")).map((t) => t.user)).toEqual([
      null,
      "slow, the first",
      "the second",
      "the third",
    ]);
  });

  it("SIGTERM drains a process: /readyz 503 at once, new turns refused with 503, its run in progress finishes, exit 0", async () => {
    const [a] = cluster.urls;
    const victim = cluster.processes[0]!;
    model.reset();
    const running = post(a!, "drained", "slow, under way", "drained-1");
    await model.held();
    victim.child.kill("SIGTERM");
    let ready: Response;
    while ((ready = await fetch(`${a}/readyz`)).status === 200) await new Promise((r) => setTimeout(r, 10));
    expect(await ready.json()).toEqual({ status: "draining", runs: 1 });
    const refused = await post(a!, "other", "hello", "other-1");
    expect(refused.status).toBe(503);
    expect((await refused.json()).error.code).toBe("shutting_down");
    model.release();
    expect(JSON.parse((await sseFrames(await running)).at(-1)!.data).event).toMatchObject({
      type: "run-finish",
      turn: 2,
    });
    expect(await victim.exit).toEqual({ code: 0, signal: null });
    expect(victim.stderr()).toContain("(stopping: 1 run in progress, 20000 ms to finish)");
    expect(await store.thread("drained")).toMatchObject({ version: 2, running: null });
    await cluster.restart(0);
  });
});
