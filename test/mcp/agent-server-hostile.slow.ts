// `autograms mcp` as a process, against what a hostile page or client sends: in headless Chromium
// (its --host-resolver-rules pointing attacker.test at 127.0.0.1, the other site's page served by
// the test) a page of attacker.test reads no answer of `--http` and makes no turn; a 600 MB body
// streamed to it is refused without being read; over stdio a 20 MB line is answered with an error
// and the next call answered; a looping call holds up no other call, and closing stdin while a
// call waits for ever ends the process. The same server in-process: agent-server-bounds.test.ts.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { openStore } from "@autograms/store";
import { bin, root } from "../cli/support/run-cli.js";
import { haveChromium, launchChromium, skippedWithout } from "../support/chromium.js";
import { fetchFrom, OTHER_SITE_FLAGS, pageAt } from "../support/other-site.js";
import { tempFolder } from "../server/support/harness.js";

const AGENT = "test/mcp/fixtures/hostile-agent/agent.ts";
const folder = tempFolder("autograms-mcp-hostile-");
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  folder.remove();
});

function start(args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [bin, "mcp", AGENT, "--offline", ...args], { cwd: root });
  children.push(child);
  return child;
}

const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", (code) => resolve(code)),
  );

const rpc = (method: string, params: object = {}, id = 1) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("autograms mcp --http", () => {
  let child: ChildProcessWithoutNullStreams;
  let browser: Browser | undefined;
  let url: string;
  let port: string;
  const store = `sqlite:${join(folder.path, "http.db")}`;

  beforeAll(async () => {
    child = start(["--http", "0", "--store", store, "--turn-time-ms", "1000"]);
    url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        out += d;
        const m = /MCP server on (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once("exit", (code) => reject(new Error(`autograms mcp exited ${code}`)));
    });
    port = new URL(url).port;
    if (haveChromium) browser = await launchChromium([...OTHER_SITE_FLAGS, "--disable-quic"]);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    child.kill("SIGTERM");
    expect(await exited(child)).toBe(0);
  });

  const threads = async () => {
    const opened = await openStore(store);
    try {
      return (await opened.listThreads()).length;
    } finally {
      await opened.close();
    }
  };

  const browserSuite = haveChromium ? describe : describe.skip;
  browserSuite(`a page of another site in headless Chromium${skippedWithout}`, () => {
    it("keeps a rebound page from reading the tools or running a turn", async () => {
      // The page's own origin, its name now resolving to 127.0.0.1: no CORS stands in the way.
      const page = await pageAt(browser!, `http://attacker.test:${port}`);
      const list = await fetchFrom(page, "/mcp", { method: "POST", headers: MCP_HEADERS, body: rpc("tools/list") });
      expect(list).toMatchObject({ status: 403, body: expect.stringContaining("forbidden_host") });
      expect(JSON.stringify(list)).not.toContain("double");
      const chat = await fetchFrom(page, "/mcp", {
        method: "POST",
        headers: MCP_HEADERS,
        body: rpc("tools/call", { name: "chat", arguments: { message: "hello" } }),
      });
      expect(chat).toMatchObject({ status: 403 });
      // The control: the same page on this machine's own name reads them.
      const own = await pageAt(browser!, `http://localhost:${port}`);
      const read = await fetchFrom(own, "/mcp", { method: "POST", headers: MCP_HEADERS, body: rpc("tools/list") });
      expect(read).toMatchObject({ status: 200, body: expect.stringContaining('"double"') });
      expect(await threads()).toBe(0);
    });

    it("keeps another site's page from running a turn, with or without a preflight", async () => {
      const page = await pageAt(browser!, "http://attacker.test:8080");
      const body = rpc("tools/call", { name: "chat", arguments: { message: "hello", thread: "victim" } });
      // text/plain and no-cors: what a page may send anywhere without asking first.
      await fetchFrom(page, `http://127.0.0.1:${port}/mcp`, { method: "POST", body, mode: "no-cors" });
      await fetchFrom(page, `http://localhost:${port}/mcp`, { method: "POST", body, mode: "no-cors" });
      // As JSON it must ask first, and is not let in.
      const asked = await fetchFrom(page, `http://127.0.0.1:${port}/mcp`, {
        method: "POST",
        headers: MCP_HEADERS,
        body,
      });
      expect(asked).toMatchObject({ error: expect.stringContaining("Failed to fetch") });
      expect(await threads()).toBe(0);
    });
  });

  it("refuses a 600 MB body streamed to it with 413, reading none of it past the bound, and answers the next call", async () => {
    const piece = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(url, { method: "POST", headers: MCP_HEADERS }, (res) => {
        res.resume();
        resolve(res.statusCode!);
        req.destroy();
      });
      // The server may close the connection as it answers: what matters is the answer.
      req.on("error", (err) => (sent < 600 ? undefined : reject(err)));
      const write = () => {
        while (sent < 600 && !req.destroyed) {
          sent++;
          if (!req.write(piece)) return void req.once("drain", write);
        }
        if (!req.destroyed) req.end();
      };
      write();
    });
    expect(status).toBe(413);
    expect(sent).toBeLessThan(600);
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))![1]) / 1024;
    expect(rss).toBeLessThan(400);
    const next = await fetch(url, {
      method: "POST",
      headers: MCP_HEADERS,
      body: rpc("tools/call", { name: "double", arguments: { n: 21 } }),
    });
    expect((await next.json()).result.structuredContent).toEqual({ value: 42 });
  }, 60_000);

  it("answers another client's tools/list at once while a call loops, and fails the loop at its budget", async () => {
    const call = (name: string, args: object) =>
      fetch(url, { method: "POST", headers: MCP_HEADERS, body: rpc("tools/call", { name, arguments: args }) });
    const ended: string[] = [];
    const looping = call("chat", { message: "loop" }).finally(() => ended.push("loop"));
    const spinning = call("spin", {}).finally(() => ended.push("spin"));
    await new Promise((r) => setTimeout(r, 200));
    const started = performance.now();
    const list = await fetch(url, { method: "POST", headers: MCP_HEADERS, body: rpc("tools/list") });
    expect(list.status).toBe(200);
    // While both loops run (they were 4.6 s behind it when a loop held the process).
    expect(ended).toEqual([]);
    expect(performance.now() - started).toBeLessThan(800);
    for (const res of [await looping, await spinning]) {
      expect((await res.json()).result).toMatchObject({
        isError: true,
        content: [{ text: expect.stringContaining("over its time budget of 1000 ms") }],
      });
    }
  }, 60_000);
});

describe("autograms mcp over stdio", () => {
  it("answers a 20 MB line with an error and the next call, and ends when stdin closes during a call that never ends", async () => {
    const child = start(["--store", `sqlite:${join(folder.path, "stdio.db")}`]);
    const answers: { id: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } }[] = [];
    let text = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      text += d;
      const lines = text.split("\n");
      text = lines.pop()!;
      for (const line of lines) answers.push(JSON.parse(line));
    });
    const answer = async (id: unknown, n = 1) => {
      for (;;) {
        const found = answers.filter((a) => a.id === id);
        if (found.length >= n) return found[n - 1]!;
        if (child.exitCode !== null) throw new Error(`autograms mcp exited ${child.exitCode}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    const write = (chunk: string) =>
      new Promise<void>((resolve) => (child.stdin.write(chunk) ? resolve() : child.stdin.once("drain", resolve)));
    const send = (line: string) => write(`${line}\n`);
    await send(
      rpc(
        "initialize",
        { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
        0,
      ),
    );
    await answer(0);
    await send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    // 20 MB of one line, in pieces as a pipe takes them.
    const piece = "x".repeat(1024 * 1024);
    await write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"double","arguments":{"n":"');
    for (let i = 0; i < 20; i++) await write(piece);
    await send('"}}}');
    await send(rpc("tools/call", { name: "double", arguments: { n: 21 } }, 2));
    expect((await answer(null)).error).toMatchObject({
      code: -32600,
      message: expect.stringContaining("4194304 bytes"),
    });
    expect((await answer(2)).result).toMatchObject({ structuredContent: { value: 42 } });
    // A call that loops: the next call is answered meanwhile.
    await send(rpc("tools/call", { name: "spin", arguments: {} }, 3));
    await send(rpc("tools/list", {}, 4));
    await answer(4);
    // Answered while the loop runs (its budget is 10 s).
    expect(answers.some((a) => a.id === 3)).toBe(false);
    // A call whose custom action never resolves, and the client goes away.
    await send(rpc("tools/call", { name: "chat", arguments: { message: "hang", thread: "held" } }, 5));
    const opened = await openStore(`sqlite:${join(folder.path, "stdio.db")}`);
    try {
      while ((await opened.thread("held"))?.running == null) await new Promise((r) => setTimeout(r, 20));
      const closing = performance.now();
      child.stdin.end();
      expect(await exited(child)).toBe(0);
      expect(performance.now() - closing).toBeLessThan(5000);
      expect((await opened.thread("held"))?.running ?? null).toBeNull();
    } finally {
      await opened.close();
    }
  }, 90_000);
});
