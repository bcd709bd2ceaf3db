// One conversation cannot freeze or crash the others, on a real `autograms serve` process with its
// turns in two worker threads: a thread's endless loop, its loop that grows a variable, a tool
// that ends its worker thread and one that never returns each end that turn with a clear error,
// the thread as it was (its next message is answered); meanwhile another thread's turns and the
// probes keep answering, and the process survives all of them.
import { afterAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { bin, root } from "../cli/support/run-cli.js";
import { sseFrames, tempFolder } from "../server/support/harness.js";

const folder = tempFolder("autograms-scale-hostile-");
const AGENT = join(root, "test/server/fixtures/hostile/agent.ts");
const TIME_BUDGET_MS = 3000;
const ROOMY_TIME_MS = 30_000;
// Far above what the endless loop's trace reaches in its time budget (a few hundred bytes a step),
// reached by the growing loop in about 17 steps (each carries the whole variable, half a million
// characters more each time).
const MEMORY_BUDGET_MB = 64;
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
  folder.remove();
});

function serve(args: string[]): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [bin, "serve", AGENT, "--offline", "--port", "0", "--no-playground", ...args], {
    cwd: folder.path,
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
      const m = /^listening on (http:\/\/\S+)\n/m.exec(stdout);
      if (m) resolve({ child, url: m[1]!, stderr: () => stderr });
    });
    child.on("close", (code) => reject(new Error(`serve exited ${code} before listening:\n${stderr}`)));
  });
}

interface Turn {
  end: { type: string; code?: string; message?: string; reply?: string };
  bytes: number;
  ms: number;
}

async function turn(url: string, thread: string, message: string | null): Promise<Turn> {
  const start = performance.now();
  const res = await fetch(`${url}/api/threads/${thread}/runs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message }),
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  const frames = await sseFrames(new Response(text));
  return { end: JSON.parse(frames.at(-1)!.data).event, bytes: text.length, ms: performance.now() - start };
}

/** Turns of another thread, and the readiness probe, one after the other until `until` settles: the slowest of each. */
async function meanwhile(
  url: string,
  until: Promise<unknown>,
  /** The hostile turn ends its worker: a calm turn sent to that worker meanwhile is lost with it. */
  endsItsWorker = false,
): Promise<{ turnMs: number; probeMs: number; turns: number; lost: number }> {
  let done = false;
  void until.finally(() => (done = true));
  let turnMs = 0;
  let probeMs = 0;
  let turns = 0;
  let lost = 0;
  while (!done) {
    const t = await turn(url, "calm", `hello ${turns}`);
    // A turn that blocks its worker's thread cannot be preempted: a calm turn already sent to that
    // worker (its thread's warm one) ends with it, nothing committed, and is sent again, as a
    // client does; what must hold is that the calm thread goes on (docs/serving.md).
    if (endsItsWorker && t.end.type === "run-error") {
      expect(t.end).toMatchObject({ code: "worker_lost", message: expect.stringMatching(/nothing was committed/) });
      lost++;
      continue;
    }
    expect(t.end).toMatchObject({ type: "run-finish", reply: `You said: hello ${turns}` });
    turnMs = Math.max(turnMs, t.ms);
    turns++;
    const start = performance.now();
    const probe = await fetch(`${url}/readyz`);
    // Ready, or a worker the hostile turn ended being replaced: never anything else.
    if (probe.status !== 200) expect(await probe.json()).toMatchObject({ status: "workers_unavailable" });
    probeMs = Math.max(probeMs, performance.now() - start);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { turnMs, probeMs, turns, lost };
}

/** Resolves once /readyz says every worker serves. */
async function whole(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await fetch(`${url}/readyz`)).status !== 200) {
    if (Date.now() > deadline) throw new Error("the pool was not whole again within 30 s");
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function version(url: string, thread: string): Promise<number> {
  return ((await (await fetch(`${url}/api/threads/${thread}`)).json()) as { thread: { version: number } }).thread
    .version;
}

describe("a hostile thread on autograms serve with worker threads", () => {
  it("ends its turns with clear errors, leaves its thread as it was, and never holds up the other threads", async () => {
    const served = (name: string, timeMs: number) =>
      serve([
        "--store",
        `sqlite:${join(folder.path, `${name}.db`)}`,
        "--workers",
        "2",
        "--turn-time-ms",
        String(timeMs),
        "--turn-memory-mb",
        String(MEMORY_BUDGET_MB),
      ]);
    const tight = await served("tight", TIME_BUDGET_MS);
    // The growing loop's steps copy its whole variable: on a loaded machine reaching the memory
    // budget can take seconds, while the endless loop's trace must stay under that budget within
    // its time budget. So it runs on a server of its own with time to spare.
    const roomy = await served("roomy", ROOMY_TIME_MS);
    for (const { url } of [tight, roomy]) await turn(url, "calm", null);

    const cases: [string, string, RegExp][] = [
      ["loop", "time_budget", /over its time budget of 3000 ms/],
      ["grow", "memory_budget", /over its memory budget of 64 MiB/],
      ["exit", "worker_lost", /worker thread running it exited \(code 3\).*nothing was committed/],
      ["hang", "worker_lost", /did not answer for \d+ ms .* and was restarted; nothing was committed/],
    ];
    for (const [message, code, why] of cases) {
      const { url } = message === "grow" ? roomy : tight;
      // The worker the last case's turn ended has been replaced: both serve again (/readyz says
      // workers_unavailable until then), so the hostile turn and the calm ones can be apart.
      await whole(url);
      const thread = `hostile-${message}`;
      await turn(url, thread, null);
      const hostile = turn(url, thread, message);
      const others = await meanwhile(url, hostile, code === "worker_lost");
      const { end, bytes, ms } = await hostile;
      expect(end, message).toMatchObject({ type: "run-error", code });
      expect(end.message, message).toMatch(why);
      // The other thread was answered all along (a frozen server would answer it after the
      // hostile turn, its time budget or more later), the probes at once.
      // (A worker that exits ends its turn at once: the other thread may have had one turn meanwhile.)
      expect(others.turns + others.lost, message).toBeGreaterThanOrEqual(1);
      // At most the one calm turn that was on the worker when it ended, and the thread goes on.
      expect(others.lost, message).toBeLessThanOrEqual(1);
      if (others.lost > 0)
        expect((await turn(url, "calm", "after")).end, message).toMatchObject({ type: "run-finish" });
      expect(others.turnMs, message).toBeLessThan(Math.min(TIME_BUDGET_MS, ms));
      expect(others.probeMs, message).toBeLessThan(1000);
      // A stream that grows with the loop's steps, not with its variable.
      expect(bytes, message).toBeLessThan(20_000_000);
      // The thread as it was: its opening only, and it answers its next message.
      expect(await version(url, thread), message).toBe(1);
      expect((await turn(url, thread, "still there?")).end, message).toMatchObject({
        type: "run-finish",
        reply: "You said: still there?",
      });
    }
    for (const { child, url } of [tight, roomy]) {
      expect(child.exitCode).toBeNull();
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    }
  });
});
