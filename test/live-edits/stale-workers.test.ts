// A server whose turns are played in worker threads checks a thread's memory against the agent
// before any run starts, as in its own thread: a thread that cannot resume is refused (422
// stale_memory), or with onStale "restart" begins its conversation again in a worker.
import { afterAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compile } from "@autograms/compiler";
import { Agent, OfflineModel } from "@autograms/runtime";
import { openStore, runTurn, type Store } from "@autograms/store";
import { listen, type RunningServer } from "@autograms/server";
import { join } from "node:path";
import { chatBody, json, tempFolder, textOf, uiChunks, uiMessageOf, userMessage } from "../server/support/harness.js";

const fixture = (name: string) => fileURLToPath(new URL(`../server/fixtures/pool/${name}`, import.meta.url));
const source = readFileSync(fixture("agent.ts"), "utf8");
const build = (text: string) => compile(text, { fileName: fixture("agent.ts") }).graph;
const before = build(source);
// An edit of the node where the thread waits: its memory cannot resume on the new build.
const after = build(source.replace(`chatExact("Hello."`, `chatExact("Hi there."`));
const agentOf = (graph: typeof before) => new Agent(graph, { model: new OfflineModel(), tools: { whoami: () => 0 } });
const folder = tempFolder("autograms-stale-workers-");
const servers: RunningServer[] = [];
const stores: Store[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(stores.map((s) => s.close()));
  folder.remove();
});

describe("a stale thread on a server with worker threads", () => {
  for (const onStale of ["refuse", "restart"] as const) {
    it(`${onStale === "refuse" ? "is refused before any run starts" : "begins again, played in a worker"} (onStale ${onStale})`, async () => {
      const store = await openStore(`sqlite:${join(folder.path, `${onStale}.db`)}`);
      stores.push(store);
      expect((await runTurn(store, agentOf(before), "t", "hi")).reply).toBe("Hello.");
      const server = await listen({
        agent: agentOf(after),
        store,
        port: 0,
        onStale,
        workers: { script: fixture("worker.mjs"), data: { graph: after }, size: 1 },
      });
      servers.push(server);
      expect(server.ctx.agents.workerThreads).toBe(1);
      const res = await fetch(`${server.url}/api/chat`, json(chatBody("t", [userMessage("m2", "again")])));
      if (onStale === "refuse") {
        expect(res.status).toBe(422);
        expect((await res.json()).error).toMatchObject({ code: "stale_memory" });
        expect((await store.thread("t"))?.version).toBe(1);
      } else {
        expect(res.status).toBe(200);
        expect(textOf(await uiMessageOf(await uiChunks(res.body!))).join(" ")).toBe("Hi there.");
        expect((await store.thread("t"))?.version).toBe(2);
      }
    }, 30_000);
  }
});
