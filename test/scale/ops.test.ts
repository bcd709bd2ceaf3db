// The operations endpoints of one server, in this process: /healthz and /readyz answer a load
// balancer without a token, /metrics counts what the runs did (in a registry per app: two apps
// in one process count apart), and a drain (SIGTERM's first step) turns /readyz to 503 at once,
// refuses new turns with 503, lets a run in progress finish within the grace period and stops one
// that overruns it, its thread released and its stream ended with `stopped`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "@autograms/store";
import { shutdown } from "@autograms/server";
import { type EchoModel, gate } from "../store/support/agents.js";
import { json, sseFrames, startTestServer, tempFolder, type TestServer } from "../server/support/harness.js";

const folder = tempFolder("autograms-scale-ops-");
afterAll(() => folder.remove());

/** The value of one sample of the metrics text (0 when absent). */
async function sample(url: string, name: string, headers: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers })).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}

/** Holds the model's next replies until `open()`; `started` resolves when one is held. */
function hold(model: EchoModel) {
  const g = gate();
  model.gate = g.promise;
  const started = model.nextStart();
  return {
    started,
    open: () => {
      model.gate = null;
      g.open();
    },
  };
}

const send = (
  url: string,
  thread: string,
  message: string | null,
  messageId?: string,
  headers: Record<string, string> = {},
) => fetch(`${url}/api/threads/${thread}/runs`, json({ message, ...(messageId ? { messageId } : {}) }, headers));

const lastEvent = async (res: Response) => JSON.parse((await sseFrames(res)).at(-1)!.data).event;

describe("probes and metrics", () => {
  let a: TestServer;
  let b: TestServer;
  const token = "ops-token";
  const auth = { authorization: `Bearer ${token}` };
  beforeAll(async () => {
    // Two apps in this process, on one store whose leases live 1 s: short, for the lapse below,
    // but long enough that a run held on a busy machine keeps renewing its own (300 ms lost it).
    const store = await openStore(`sqlite:${folder.path}/probes.db`, { leaseMs: 1_000 });
    [a, b] = await Promise.all([
      startTestServer(folder.path, { store, token }),
      startTestServer(folder.path, { store, token }),
    ]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await a?.store.close();
  });

  it("/healthz and /readyz need no token; /metrics does", async () => {
    expect(await (await fetch(`${a.url}/healthz`)).json()).toEqual({ status: "ok" });
    expect(await (await fetch(`${a.url}/readyz`)).json()).toEqual({ status: "ready", runs: 0 });
    expect((await fetch(`${a.url}/metrics`)).status).toBe(401);
    const res = await fetch(`${a.url}/metrics`, { headers: auth });
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toMatch(/^# HELP autograms_/m);
    const paths = Object.keys((await (await fetch(`${a.url}/openapi.json`, { headers: auth })).json()).paths);
    expect(paths).toEqual(expect.arrayContaining(["/healthz", "/readyz", "/metrics"]));
  });

  it("counts turns, their latency, replays, busy refusals and lapsed leases, per app", async () => {
    const h = auth;
    expect(await lastEvent(await send(a.url, "p1", "one", "p1-m1", h))).toMatchObject({ type: "run-finish" });
    expect(await lastEvent(await send(a.url, "p1", "one", "p1-m1", h))).toMatchObject({ type: "run-finish" }); // replayed
    expect(await sample(a.url, 'autograms_turns_total{outcome="committed"}', h)).toBe(1);
    expect(await sample(a.url, 'autograms_turns_total{outcome="replayed"}', h)).toBe(1);
    expect(await sample(a.url, 'autograms_turn_duration_seconds_count{outcome="committed"}', h)).toBe(1);
    expect(await sample(b.url, 'autograms_turns_total{outcome="committed"}', h)).toBe(0);

    // A run held at the model on A: B refuses a second message (reject), then A's run finishes.
    const held = hold(a.model);
    const running = send(a.url, "p1", "two", "p1-m2", h);
    await held.started;
    expect((await send(b.url, "p1", "three", "p1-m3", h)).status).toBe(409);
    expect(await sample(b.url, "autograms_busy_refusals_total", h)).toBe(1);
    expect(await sample(a.url, "autograms_runs_in_progress", h)).toBe(1);
    held.open();
    expect(await lastEvent(await running)).toMatchObject({ type: "run-finish", turn: 3 });

    // A lease left by a process that died (taken here and never released) lapses after 1 s;
    // the process that takes the thread next counts it.
    const dead = await a.store.acquire("p1", { owner: "pid 1 on gone" });
    await new Promise((r) => setTimeout(r, 1_050));
    expect(await lastEvent(await send(b.url, "p1", "four", "p1-m4", h))).toMatchObject({ type: "run-finish", turn: 4 });
    expect(dead.version).toBe(3);
    expect(await sample(b.url, "autograms_leases_expired_total", h)).toBe(1);
    expect(await sample(a.url, "autograms_leases_expired_total", h)).toBe(0);
  });
});

describe("draining", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(folder.path, { store: await openStore(`sqlite:${folder.path}/drain.db`) });
  });
  afterAll(async () => {
    await t?.close();
    await t?.store.close();
  });

  it("readyz turns 503 at once and new turns are refused; a run in progress finishes within the grace period", async () => {
    expect(await lastEvent(await send(t.url, "d1", null))).toMatchObject({ type: "run-finish", turn: 1 });
    const held = hold(t.model);
    const running = send(t.url, "d1", "slow", "d1-m1");
    await held.started;
    const stopping = shutdown(t.server, { graceMs: 30_000 });
    const ready = await fetch(`${t.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "draining", runs: 1 });
    const refused = await send(t.url, "d2", "new", "d2-m1");
    expect(refused.status).toBe(503);
    expect((await refused.json()).error).toMatchObject({ code: "shutting_down", retryable: true });
    // The same message sent again while its run goes on is not a new turn: it follows the run.
    const again = await send(t.url, "d1", "slow", "d1-m1");
    expect(again.status).toBe(200);
    held.open();
    expect(await lastEvent(await running)).toMatchObject({ type: "run-finish", turn: 2 });
    expect(await lastEvent(again)).toMatchObject({ type: "run-finish", turn: 2 });
    expect(await stopping).toEqual({ finished: 1, stopped: 0 });
    expect((await t.store.turns("d1")).map((turn) => turn.user)).toEqual([null, "slow"]);
  });

  it("a run that overruns the grace period is stopped: its stream ends with `stopped`, nothing committed, the thread free at once", async () => {
    const u = await startTestServer(folder.path, { store: t.store });
    const held = hold(u.model);
    const running = send(u.url, "d3", "too slow", "d3-m1");
    await held.started;
    expect(await shutdown(u.server, { graceMs: 50 })).toEqual({ finished: 0, stopped: 1 });
    expect(await lastEvent(await running)).toMatchObject({ type: "run-error", code: "stopped" });
    held.open();
    const info = await t.store.thread("d3");
    expect(info).toMatchObject({ running: null });
    // Another process takes the same message: one turn.
    const other = await startTestServer(folder.path, { store: t.store });
    try {
      expect(await lastEvent(await send(other.url, "d3", "too slow", "d3-m1"))).toMatchObject({
        type: "run-finish",
        turn: 2,
      });
    } finally {
      await other.close();
    }
    expect((await t.store.turns("d3")).map((turn) => turn.messageId)).toEqual([null, "d3-m1"]);
  });

  it("a message waiting for its thread (--busy enqueue) when the grace period ends is refused with 503, to go to another process", async () => {
    const u = await startTestServer(folder.path, { store: t.store, policy: "enqueue" });
    const held = hold(u.model);
    const running = send(u.url, "d4", "slow", "d4-m1");
    await held.started;
    const waiting = send(u.url, "d4", "next", "d4-m2");
    await new Promise((r) => setTimeout(r, 100));
    expect(await shutdown(u.server, { graceMs: 50 })).toEqual({ finished: 0, stopped: 1 });
    held.open();
    expect(await lastEvent(await running)).toMatchObject({ type: "run-error", code: "stopped" });
    const refused = await waiting;
    expect(refused.status).toBe(503);
    expect((await refused.json()).error.code).toBe("shutting_down");
    expect(await t.store.thread("d4")).toMatchObject({ running: null });
    expect((await t.store.turns("d4")).map((turn) => turn.user)).toEqual([null]); // the opening only
  });
});
