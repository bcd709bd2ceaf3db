// `listen` writes its event streams to the connection itself and tells @hono/node-server so with
// its RESPONSE_ALREADY_SENT. Loaded in a process where another server had already replaced the
// global `Response`, that constant was made as one of the server's lightweight responses, and
// the server wrote the stream's headers a second time (ERR_HTTP_HEADERS_SENT): serve.ts makes it
// a full one. The order of loading matters, so the process is a fresh one, on the built packages
// (`npm run build`).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

const SCRIPT = `
import { serve } from "@hono/node-server";
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const other = serve({ fetch: () => new Response("other"), port: 0 });
const { listen } = await import("@autograms/server");
const { openStore } = await import("@autograms/store");
const { Agent, OfflineModel } = await import("@autograms/runtime");
const dir = mkdtempSync(join(tmpdir(), "autograms-serve-after-"));
const store = await openStore("sqlite:" + join(dir, "threads.db"));
const graph = JSON.parse(readFileSync("samples/tutor/agent.graph.json", "utf8"));
const server = await listen({ agent: new Agent(graph, { model: new OfflineModel({ wordDelayMs: 0 }) }), store, port: 0 });
const res = await fetch(server.url + "/api/threads/t1/runs", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ message: null }),
});
console.log(JSON.stringify({ status: res.status, type: res.headers.get("content-type"), text: await res.text() }));
await server.close();
await store.close();
other.close();
rmSync(dir, { recursive: true, force: true });
`;

it("streams a run once another server in the process has replaced the global Response", () => {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", SCRIPT], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
  const { status, type, text } = JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, string>;
  expect([status, type]).toEqual([200, "text/event-stream"]);
  expect(text).toMatch(/^id: .+\nevent: run-start\n/);
  expect(text).toMatch(/event: run-finish\ndata: .*fractions tutor/);
}, 90_000);
