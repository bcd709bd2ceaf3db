// `autograms serve --workers 2` with an agent whose tools come from an MCP server: the server
// process starts once for the command (the workers' turns call its tools through the server's
// thread), and stops when the command stops; while it is down, /readyz says so until it is back.
import { afterAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bin, cliTestFolder } from "../cli/support/run-cli.js";
import { chatBody, json, textOf, uiChunks, uiMessageOf, userMessage } from "../server/support/harness.js";
import { processGone } from "../support/process-alive.js";
import { starts } from "./support/shop-starts.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const folder = cliTestFolder("autograms-mcp-serve-");
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
});

/** `autograms serve` of the pool fixture with the test shop as its MCP server (its starts in the pid file). */
async function serveShop(name: string) {
  const pidFile = join(folder(), `${name}.pids`);
  const config = join(folder(), `${name}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        shop: { command: process.execPath, args: [here("./support/shop-server.mjs")], env: { SHOP_PID_FILE: pidFile } },
      },
    }),
  );
  const args = [here("./fixtures/pool/agent.ts"), "--offline", "--workers", "2", "--port", "0"];
  const child = spawn(
    process.execPath,
    [
      bin,
      "serve",
      ...args,
      "--mcp-config",
      config,
      "--store",
      `sqlite:${join(folder(), `${name}.db`)}`,
      "--no-playground",
    ],
    { cwd: folder() },
  );
  children.push(child);
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  const exit = new Promise<number | null>((r) => child.on("close", r));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      out += c;
      const m = /^listening on (http:\/\/\S+)\n/m.exec(out);
      if (m) resolve(m[1]!);
    });
    void exit.then((code) => reject(new Error(`serve exited ${code}:\n${out}\n${stderr}`)));
  });
  const say = async (thread: string) => {
    const res = await fetch(`${url}/api/chat`, json(chatBody(thread, [userMessage("m1", "hello")])));
    // The thread's first turn is played too (the agent speaks first): the last reply answers "hello".
    return textOf(await uiMessageOf(await uiChunks(res.body!))).at(-1)!;
  };
  return { child, exit, url, say, pids: () => starts(pidFile) };
}

const pattern = /^worker (\d+): tea 2\.5 EUR, MCP tool 'out_of_stock' of 'shop' failed: no more cake$/;

describe("autograms serve with MCP tools", () => {
  it("starts the MCP server once for its workers, whose turns call its tools, and stops it when it stops", async () => {
    const { child, exit, say, pids } = await serveShop("once");
    const said = await Promise.all(["a", "b"].map(say));
    for (const reply of said) expect(reply).toMatch(pattern);
    // Played in both workers (not the server's thread, 0).
    expect(new Set(said.map((r) => pattern.exec(r)![1])).size).toBe(2);
    expect(said.some((r) => pattern.exec(r)![1] === "0")).toBe(false);
    const [pid, ...more] = pids();
    expect(more).toEqual([]);
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
    await processGone(pid!);
  });

  it("says not ready while the MCP server is down, starts it again, and serves on", async () => {
    const { child, exit, url, say, pids } = await serveShop("restart");
    const ready = async () => {
      const res = await fetch(`${url}/readyz`);
      return { status: res.status, body: (await res.json()) as { status: string; why?: string } };
    };
    expect((await ready()).status).toBe(200);
    const [first] = pids();
    process.kill(first!, "SIGKILL");
    await expect
      .poll(ready, { interval: 20 })
      .toEqual({ status: 503, body: { status: "dependency_down", why: "MCP server 'shop' is down" } });
    await expect.poll(async () => (await ready()).status, { timeout: 10_000 }).toBe(200);
    expect(await say("c")).toMatch(pattern);
    const [, second, ...more] = pids();
    expect(more).toEqual([]);
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
    await processGone(second!);
  });
});
