// The tool playground's calls on a server whose turns worker threads play: each call runs in a
// worker, never in the server's thread (whose view of the agent here has tools that fail if
// called). A tool that never returns, or that ends its thread, fails its own call with a clear
// error while the server answers its probes and another thread's turns; a call stopped while its
// tool ignores the stop has its worker replaced. A plain function is listed, with no schema, and
// called with its argument list.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { threadId } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, OfflineModel, defineTool, toolDefinitionOf, type Tool, type ToolParameters } from "@autograms/runtime";
import { openStore, type Store } from "@autograms/store";
import { listen, TurnPool, type RunningServer } from "@autograms/server";
import { graph, n } from "../runtime/helpers.js";
import { json, sseFrames, tempFolder } from "./support/harness.js";
// @ts-expect-error: a fixture in plain JavaScript, as the worker imports it.
import { tools } from "./fixtures/pool/hostile-tools.mjs";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/pool/${name}`, import.meta.url));
const TIME_BUDGET_MS = 500;

const toolsGraph = graph([n({ name: "hello", action: "chat_exact", instruction: "Hello.", transitions: ["hello"] })]);

/** The server's view of the workers' agent: the same tools, described alike, that fail if called here. */
function viewAgent(): Agent {
  const here = (name: string) => () => {
    throw new Error(`tool '${name}' was called in the server's thread`);
  };
  const view = Object.fromEntries(
    Object.entries(tools as Record<string, Tool>).map(([name, tool]) => {
      const definition = toolDefinitionOf(tool);
      if (!definition) return [name, here(name)];
      const { description, parameters } = definition;
      return [
        name,
        defineTool({
          name,
          description: description as string,
          parameters: parameters as ToolParameters,
          run: here(name),
        }),
      ];
    }),
  );
  return new Agent(toolsGraph, { model: new OfflineModel(), tools: view });
}

const folder = tempFolder("autograms-tool-calls-workers-");
let store: Store;
let pool: TurnPool;
let server: RunningServer;
beforeAll(async () => {
  store = await openStore(`sqlite:${join(folder.path, "threads.db")}`);
  pool = new TurnPool({
    script: fixture("tool-calls-worker.mjs"),
    data: { graph: toolsGraph },
    size: 2,
    budgets: { timeMs: TIME_BUDGET_MS },
  });
  server = await listen({ agent: viewAgent(), store, port: 0, workers: pool });
});
afterAll(async () => {
  await server?.close();
  await store?.close();
  folder.remove();
});

type Answer = { result?: unknown; error?: { code: string; message: string } };
async function call(name: string, args: unknown): Promise<Answer> {
  const res = await fetch(`${server.url}/api/tools/${name}/call`, json({ arguments: args }));
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

/** A turn of `thread`: its run's last event. */
async function turn(thread: string, message: string | null): Promise<{ type: string; reply?: string }> {
  const res = await fetch(`${server.url}/api/threads/${thread}/runs`, json({ message }));
  expect(res.status).toBe(200);
  const frames = await sseFrames(res);
  return JSON.parse(frames.at(-1)!.data).event;
}

/** Another thread's turns and the probe, one after the other until `until` settles: each must be answered. */
async function meanwhile(thread: string, until: Promise<unknown>): Promise<number> {
  let done = false;
  void until.finally(() => (done = true));
  let turns = 0;
  while (!done) {
    const end = await turn(thread, turns === 0 ? null : `hello ${turns}`);
    expect(end, JSON.stringify(end)).toMatchObject({ type: "run-finish" });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    turns++;
  }
  return turns;
}

describe("tools called from the playground's API, on a server whose turns workers play", () => {
  it("lists every tool, a plain function with no schema, and calls them in a worker thread", async () => {
    const listed = (await (await fetch(`${server.url}/api/tools`)).json()) as { tools: unknown[] };
    expect(listed.tools).toEqual([
      { name: "whoami", parameters: null },
      {
        name: "echo",
        description: "Says it back, and where.",
        parameters: { type: "object", properties: { said: { type: "string" } }, required: ["said"] },
      },
      { name: "spin", parameters: null },
      { name: "endThread", parameters: null },
      expect.objectContaining({ name: "hang" }),
    ]);
    const echoed = await call("echo", { said: "hi" });
    expect(echoed.result).toMatchObject({ said: "hi" });
    const worker = (echoed.result as { thread: number }).thread;
    expect(worker).not.toBe(threadId);
    const plain = await call("whoami", []);
    expect(typeof plain.result).toBe("number");
    expect(plain.result).not.toBe(threadId);
  });

  it("fails a call whose tool never returns, while the server and another thread's turns go on", async () => {
    await pool.ready();
    const started = Date.now();
    const spun = call("spin", []);
    const turns = await meanwhile("calm-spin", spun);
    const answer = await spun;
    expect(answer.error).toEqual({
      code: "tool_failed",
      message: expect.stringMatching(
        /^the worker thread running it did not answer for \d+ ms \(a step or a tool that never ends\) and was restarted; the tool's call was not answered$/,
      ),
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(turns).toBeGreaterThan(0);
    // The worker's replacement calls tools.
    expect((await call("echo", { said: "again" })).result).toMatchObject({ said: "again" });
  });

  it("fails a call whose tool ends its thread, and the pool goes on", async () => {
    // Both workers serve (the one the last test ended is replaced): the other thread's turns go to the one not calling.
    await pool.ready();
    const exited = call("endThread", []);
    await meanwhile("calm-exit", exited);
    expect((await exited).error).toEqual({
      code: "tool_failed",
      message: "the worker thread running it exited (code 3); the tool's call was not answered",
    });
    expect(await turn("calm-exit", "still there?")).toMatchObject({ type: "run-finish" });
    expect((await call("echo", { said: "after" })).result).toMatchObject({ said: "after" });
  });

  it("replaces the worker of a stopped call whose tool goes on", async () => {
    await pool.ready();
    const log = join(folder.path, "hang.log");
    const stop = new AbortController();
    const hung = pool.callTool({ name: "hang", args: { log }, signal: stop.signal });
    const stopped = expect(hung).rejects.toThrow("enough");
    while (!existsSync(log)) await new Promise((r) => setTimeout(r, 20));
    stop.abort(new Error("enough"));
    await stopped;
    const hangThread = Number(readFileSync(log, "utf8").trim());
    // Two calls at once go to both workers: once the stuck one is replaced, neither is it.
    const workers = async () => {
      await pool.ready();
      const both = await Promise.all([call("whoami", [300]), call("whoami", [300])]);
      return both.map((a) => a.result);
    };
    const deadline = Date.now() + 15_000;
    let seen = await workers();
    while (seen.includes(hangThread) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      seen = await workers();
    }
    expect(seen).not.toContain(hangThread);
    expect(new Set(seen).size).toBe(2);
  });
});
