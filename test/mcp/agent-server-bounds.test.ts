// `autograms mcp`'s server in this process (cli/src/mcp-server): over HTTP it refuses what `serve`
// refuses (another site's Host or Origin, a body not sent as JSON, a missing token, a body over the
// bound), over stdio a line over the bound is answered with an error and the next one is read, and
// a call that loops or waits for ever is stopped by its budgets while other calls are answered.
// The process itself, in Chromium and with hundreds of megabytes, is agent-server-hostile.slow.ts.
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "@autograms/compiler";
import { Agent } from "@autograms/runtime";
import { DEFAULT_BUDGETS, type RunningEndpoint } from "@autograms/server";
import { openStore, type Store } from "@autograms/store";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import * as types from "@modelcontextprotocol/sdk/types.js";
import { AgentMcpServer } from "../../cli/src/mcp-server/agent-server.js";
import { autogramsInProcess } from "../cli/support/run-cli.js";
import { EchoModel } from "../store/support/agents.js";
import { tempFolder } from "../server/support/harness.js";
import { wait } from "./fixtures/hostile-agent/actions.js";

const FIXTURE = join(import.meta.dirname, "fixtures/hostile-agent");
const sdk = { Server, types, HttpTransport: WebStandardStreamableHTTPServerTransport };
const folder = tempFolder("autograms-mcp-bounds-");
const TOKEN = "s3cret-token";
let store: Store;
let agent: Agent;
let mcp: AgentMcpServer;
let open: RunningEndpoint;
let guarded: RunningEndpoint;

beforeAll(async () => {
  const { graph, diagnostics } = compile(readFileSync(join(FIXTURE, "agent.ts"), "utf8"), {
    fileName: "agent.ts",
    readFile: (p) => (p.endsWith("actions.ts") ? readFileSync(join(FIXTURE, "actions.ts"), "utf8") : undefined),
  });
  expect(diagnostics).toEqual([]);
  agent = new Agent(graph!, { model: new EchoModel(), actions: [wait] });
  store = await openStore(`sqlite:${join(folder.path, "threads.db")}`);
  mcp = new AgentMcpServer(agent, store, { budgets: { ...DEFAULT_BUDGETS, timeMs: 300 }, timeoutMs: 1200 }, sdk);
  open = await mcp.overHttp({ port: 0, maxBodyBytes: 64 * 1024 });
  guarded = await mcp.overHttp({ port: 0, token: TOKEN, maxBodyBytes: 64 * 1024 });
});
afterAll(async () => {
  await mcp?.stop();
  await open?.close();
  await guarded?.close();
  await store?.close();
  folder.remove();
});

const rpc = (method: string, params: object = {}, id = 1) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** A request as given, Host included (fetch() would not send that one as given). */
function raw(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: "POST", headers }, (res) => {
      let text = "";
      res
        .setEncoding("utf8")
        .on("data", (c: string) => (text += c))
        .on("end", () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body });

describe("autograms mcp --http: the guards of serve", () => {
  it("answers only requests that name this machine (Host), as a rebound page's do not", async () => {
    const port = new URL(open.url).port;
    const rebound = await raw(open.url, { ...MCP_HEADERS, host: `attacker.test:${port}` }, rpc("tools/list"));
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error).toMatchObject({ code: "forbidden_host", field: "Host" });
    expect(rebound.body).not.toContain("double");
    const own = await raw(open.url, { ...MCP_HEADERS, host: `localhost:${port}` }, rpc("tools/list"));
    expect([own.status, own.body]).toEqual([200, expect.stringContaining('"double"')]);
  });

  it("refuses another site's page: its Origin, and a body not sent as JSON (a request with no preflight)", async () => {
    const foreign = await post(open.url, rpc("tools/list"), { origin: "http://attacker.test:8080" });
    expect([foreign.status, (await foreign.json()).error.code]).toEqual([403, "forbidden_origin"]);
    const plain = await post(open.url, rpc("tools/call", { name: "double", arguments: { n: 2 } }), {
      "content-type": "text/plain",
    });
    expect([plain.status, (await plain.json()).error.code]).toEqual([415, "unsupported_media_type"]);
  });

  it("with a token, answers only the requests that carry it", async () => {
    const none = await post(guarded.url, rpc("tools/list"));
    expect([none.status, (await none.json()).error.code]).toEqual([401, "unauthorized"]);
    const wrong = await post(guarded.url, rpc("tools/list"), { authorization: "Bearer nope" });
    expect(wrong.status).toBe(401);
    const right = await post(guarded.url, rpc("tools/call", { name: "double", arguments: { n: 21 } }), {
      authorization: `Bearer ${TOKEN}`,
    });
    expect(right.status).toBe(200);
    expect((await right.json()).result.structuredContent).toEqual({ value: 42 });
  });

  it("refuses a body over the bound with 413, by its length or as it is counted, and answers the next call", async () => {
    const big = rpc("tools/call", { name: "double", arguments: { n: "x".repeat(100 * 1024) } });
    const declared = await post(open.url, big);
    expect([declared.status, (await declared.json()).error]).toEqual([
      413,
      expect.objectContaining({ code: "too_large", message: expect.stringContaining("--max-message-mb") }),
    ]);
    const chunks = new TextEncoder().encode(big);
    const streamed = await fetch(open.url, {
      method: "POST",
      headers: MCP_HEADERS,
      duplex: "half",
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < chunks.length; i += 8192) controller.enqueue(chunks.subarray(i, i + 8192));
          controller.close();
        },
      }),
    } as RequestInit);
    expect(streamed.status).toBe(413);
    const next = await post(open.url, rpc("tools/call", { name: "double", arguments: { n: 4 } }));
    expect((await next.json()).result.structuredContent).toEqual({ value: 8 });
    const notJson = await post(open.url, "{ not json");
    expect([notJson.status, (await notJson.json()).error.code]).toEqual([400, "bad_json"]);
    expect((await post(open.url.replace(/\/mcp$/, "/other"), rpc("tools/list"))).status).toBe(404);
  });
});

describe("autograms mcp: calls that never end", () => {
  it("answers another client while a call loops, and stops the loop at its time budget", async () => {
    expect((await post(open.url, rpc("tools/list"))).status).toBe(200);
    const ended: string[] = [];
    const spinning = post(open.url, rpc("tools/call", { name: "spin", arguments: {} })).finally(() =>
      ended.push("spin"),
    );
    const looping = post(open.url, rpc("tools/call", { name: "chat", arguments: { message: "loop" } })).finally(() =>
      ended.push("loop"),
    );
    await new Promise((r) => setTimeout(r, 50));
    const list = await post(open.url, rpc("tools/list"));
    expect(list.status).toBe(200);
    // Answered while both loops still ran (a loop that held the thread would have let it through only after).
    expect(ended).toEqual([]);
    for (const res of [await spinning, await looping]) {
      const { result } = await res.json();
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(
        /over its time budget of 300 ms \(an endless loop\?\); nothing was committed/,
      );
    }
  });

  it("stops a call whose custom action never resolves at the call's time limit, nothing committed", async () => {
    const res = await post(open.url, rpc("tools/call", { name: "chat", arguments: { message: "hang", thread: "t1" } }));
    const { result } = await res.json();
    expect(result).toMatchObject({ isError: true });
    expect(result.content[0].text).toMatch(
      /took longer than 1200 ms \(--call-timeout-ms\).*nothing of it was committed/,
    );
    // The opening turn was committed; the hanging one was not, and the thread is free again.
    expect((await store.thread("t1"))!.version).toBe(1);
    const again = await post(open.url, rpc("tools/call", { name: "chat", arguments: { message: "hi", thread: "t1" } }));
    expect((await again.json()).result.structuredContent).toEqual({ reply: "You said: hi", thread: "t1" });
  });
});

describe("autograms mcp --http: a client that goes away", () => {
  it("stops its call: the thread is let go before the call's time limit", async () => {
    const patient = new AgentMcpServer(agent, store, { budgets: DEFAULT_BUDGETS, timeoutMs: 60_000 }, sdk);
    const endpoint = await patient.overHttp({ port: 0, maxBodyBytes: 64 * 1024 });
    try {
      const gone = new AbortController();
      const call = fetch(endpoint.url, {
        method: "POST",
        headers: MCP_HEADERS,
        body: rpc("tools/call", { name: "chat", arguments: { message: "hang", thread: "t3" } }),
        signal: gone.signal,
      }).catch(() => undefined);
      while ((await store.thread("t3"))?.running == null) await new Promise((r) => setTimeout(r, 5));
      gone.abort();
      await call;
      const started = performance.now();
      while ((await store.thread("t3"))?.running != null) await new Promise((r) => setTimeout(r, 5));
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      await patient.stop();
      await endpoint.close();
    }
  });
});

describe("autograms mcp over stdio", () => {
  /** A server on two pipes; `lines` the answers it wrote. */
  function piped(server: AgentMcpServer, maxBytes: number) {
    const input = new PassThrough();
    const output = new PassThrough();
    const lines: { id?: unknown; result?: { tools?: unknown[] }; error?: { code: number; message: string } }[] = [];
    let text = "";
    output.setEncoding("utf8").on("data", (d: string) => {
      text += d;
      const parts = text.split("\n");
      text = parts.pop()!;
      for (const p of parts) lines.push(JSON.parse(p));
    });
    const served = server.overStdio(maxBytes, input, output);
    const answered = async (n: number) => {
      while (lines.length < n) await new Promise((r) => setTimeout(r, 5));
      return lines;
    };
    return { input, served, answered };
  }

  it("answers a line over the bound with a JSON-RPC error, reads none of it, and answers the next call", async () => {
    const { input, served, answered } = piped(mcp, 1024 * 1024);
    // 20 MB in pieces, as a pipe gives them, with no end of line until the last.
    const piece = "x".repeat(1024 * 1024);
    for (let i = 0; i < 20; i++) input.write(i === 0 ? `{"jsonrpc":"2.0","id":7,"method":"${piece}` : piece);
    input.write('"}\n');
    input.write(`${rpc("tools/list", {}, 8)}\n`);
    const lines = await answered(2);
    expect(lines[0]).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringContaining("1048576 bytes") },
    });
    expect(lines[1]).toMatchObject({ id: 8, result: { tools: expect.any(Array) } });
    input.write("not json\n");
    expect((await answered(3))[2]).toMatchObject({ id: null, error: { code: -32700 } });
    input.end();
    await served;
  });

  it("ends when stdin closes while a call waits for ever, and the call lets go of its thread", async () => {
    const patient = new AgentMcpServer(agent, store, { budgets: DEFAULT_BUDGETS, timeoutMs: 60_000 }, sdk);
    const { input, served } = piped(patient, 1024 * 1024);
    input.write(`${rpc("tools/call", { name: "chat", arguments: { message: "hang", thread: "t2" } }, 2)}\n`);
    // Until the hanging turn holds the thread (after the opening turn).
    while ((await store.thread("t2"))?.running == null) await new Promise((r) => setTimeout(r, 5));
    const started = performance.now();
    input.end();
    await served;
    await patient.stop();
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await store.thread("t2"))?.running ?? null).toBeNull();
  });
});

describe("autograms mcp's options", () => {
  it("refuses access options without --http, a token no client can send, and a bound of nothing", async () => {
    const agentFile = "test/mcp/fixtures/hostile-agent/agent.ts";
    const stdio = await autogramsInProcess(["mcp", agentFile, "--offline", "--token", "abc"]);
    expect([stdio.code, stdio.stderr]).toEqual([
      2,
      expect.stringMatching(/^autograms mcp: --token, --token-file and --allowed-host are for --http/),
    ]);
    const spaced = await autogramsInProcess(["mcp", agentFile, "--offline", "--http", "0", "--token", "two words"]);
    expect([spaced.code, spaced.stderr]).toEqual([
      2,
      expect.stringMatching(/^autograms mcp: --token: the token must be visible ASCII characters/),
    ]);
    const nothing = await autogramsInProcess(["mcp", agentFile, "--max-message-mb", "0"]);
    expect([nothing.code, nothing.stderr]).toEqual([2, expect.stringContaining("--max-message-mb")]);
  });
});
