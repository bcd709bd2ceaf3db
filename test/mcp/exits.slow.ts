// Every command that loads an agent whose tools come from an MCP server ends by itself, and stops
// that server as it ends, on its error paths too: each command runs as a process of its own (a
// command that left the server running would never exit), and the server's process ids (written
// to a file at each start) must be gone after it.
import { afterAll, describe, expect, it } from "vitest";
import { DebugClient } from "@vscode/debugadapter-testsupport";
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bin, cliTestFolder, type CliResult } from "../cli/support/run-cli.js";
import { processGone } from "../support/process-alive.js";
import { starts } from "./support/shop-starts.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const folder = cliTestFolder("autograms-mcp-exits-");
const children: ChildProcess[] = [];
let blocker: Server | undefined;
afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  await new Promise((r) => (blocker ? blocker.close(r) : r(undefined)));
});

/** What a command may take to end: the MCP server's start and a compile, on a busy machine. */
const EXIT_BOUND_MS = 40_000;

/** Runs the command in `cwd`, or fails once the bound has passed without it ending (and kills it). */
function ended(args: string[], cwd: string, input = ""): Promise<CliResult> {
  // The commands that start the servers approve the .mcp.json beside the agent, remembered in a
  // configuration folder of this file's, never the user's.
  const approve = ["compile", "graph", "mcp-types"].includes(args[0]!) ? [] : ["--approve-mcp"];
  const env = { ...process.env, XDG_CONFIG_HOME: join(folder(), "config") };
  const child = spawn(process.execPath, [bin, ...args, ...approve], { cwd, env });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  child.stdin.on("error", () => {});
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    const bound = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`autograms ${args[0]} did not exit within ${EXIT_BOUND_MS} ms:\n${stdout}\n${stderr}`));
    }, EXIT_BOUND_MS);
    child.on("close", (code) => {
      clearTimeout(bound);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A folder with the agent and a .mcp.json beside it whose server writes its pid to `pids`. */
function project(name: string): { dir: string; pids: string } {
  const dir = join(folder(), name);
  mkdirSync(dir);
  copyFileSync(here("./fixtures/exits/agent.ts"), join(dir, "agent.ts"));
  const pids = join(dir, "shop.pids");
  const server = { command: process.execPath, args: [here("./support/shop-server.mjs")], env: { SHOP_PID_FILE: pids } };
  writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { shop: server } }));
  return { dir, pids };
}

async function busyPort(): Promise<number> {
  blocker ??= await new Promise<Server>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => resolve(s));
  });
  return (blocker.address() as { port: number }).port;
}

const store = ["--store", "sqlite:threads.db"];

type Case = {
  /** A command run first, with "hi" as input: a thread of the agent, a trace. */
  before?: string[];
  args: () => Promise<string[]> | string[];
  input?: string;
  code: number;
  out?: RegExp;
};

const aThread = ["chat", "agent.ts", "--offline", "--thread", "t1", ...store];

const CASES: Record<string, Case> = {
  compile: { args: () => ["compile", "agent.ts"], code: 0 },
  graph: { args: () => ["graph", "agent.ts"], code: 0 },
  chat: { args: () => ["chat", "agent.ts", "--offline", ...store], input: "hi\n", code: 0, out: /Tea is 2\.5 EUR/ },
  run: { args: () => ["run", "agent.ts", "price", '"tea"'], code: 0, out: /^2\.5$/m },
  simulate: { args: () => ["simulate", "agent.ts", "--offline", "-n", "2", "--max-turns", "2"], code: 0 },
  "debug (live)": {
    args: () => ["debug", "agent.ts", "--offline"],
    input: "continue\nhello\nquit\n",
    code: 0,
    out: /Tea is 2\.5 EUR/,
  },
  "debug --replay": {
    before: ["chat", "agent.ts", "--offline", "--trace", "t.jsonl"],
    args: () => ["debug", "agent.ts", "--replay", "t.jsonl"],
    input: "continue\ncontinue\ncontinue\n",
    code: 0,
    out: /Tea is 2\.5 EUR/,
  },
  "threads list": { before: aThread, args: () => ["threads", "list", "--agent", "agent.ts", ...store], code: 0 },
  "threads migrate": {
    before: aThread,
    args: () => ["threads", "migrate", "t1", "--to", "more", "--agent", "agent.ts", ...store],
    code: 0,
  },
  "threads migrate (refused)": {
    before: aThread,
    args: () => ["threads", "migrate", "t1", "--to", "nowhere", "--agent", "agent.ts", ...store],
    code: 1,
  },
  "serve on a port in use": {
    args: async () => ["serve", "agent.ts", "--offline", "--port", String(await busyPort()), ...store],
    code: 1,
  },
  "serve on a port in use, --workers 0": {
    args: async () => [
      "serve",
      "agent.ts",
      "--offline",
      "--workers",
      "0",
      "--port",
      String(await busyPort()),
      ...store,
    ],
    code: 1,
  },
  "serve --watch on a port in use": {
    args: async () => ["serve", "agent.ts", "--offline", "--watch", "--port", String(await busyPort()), ...store],
    code: 1,
  },
  "mcp-types": { args: () => ["mcp-types", "--mcp-config", ".mcp.json"], code: 0, out: /declare module "mcp:shop"/ },
};

describe("a command with an MCP-importing agent", () => {
  it.each(Object.keys(CASES))(
    "%s exits by itself and stops the MCP server",
    async (name) => {
      const c = CASES[name]!;
      const { dir, pids } = project(name.replace(/\W+/g, "-"));
      if (c.before) {
        const made = await ended(c.before, dir, "hi\n");
        expect(made.code, made.stderr).toBe(0);
      }
      const r = await ended(await c.args(), dir, c.input);
      expect(r.code, r.stderr).toBe(c.code);
      if (c.out) expect(r.stdout).toMatch(c.out);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      const started = starts(pids);
      // compile and graph start no server; every other command does.
      if (!["compile", "graph"].includes(name)) expect(started.length).toBeGreaterThan(0);
      for (const pid of started) await processGone(pid);
    },
    120_000,
  );
});

describe("autograms dap with an MCP-importing agent", () => {
  it("launches it, its tools called, and stops the server when the client goes", async () => {
    const { dir, pids } = project("dap");
    const child = spawn(process.execPath, [bin, "dap"], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
    children.push(child);
    const exit = new Promise<number | null>((r) => child.on("close", r));
    const client = new (class extends DebugClient {
      attachTo(): void {
        this.connect(child.stdout!, child.stdin!);
      }
    })("node", bin, "autograms");
    client.defaultTimeout = 30_000;
    client.attachTo();
    const agent = join(dir, "agent.ts");
    // Line 9 (the reply) runs after the tool's call on line 8.
    await client.hitBreakpoint(
      { program: "agent.ts", cwd: dir, offline: true, mcpConfig: ".mcp.json" },
      { path: agent, line: 9 },
    );
    const frame = (await client.stackTraceRequest({ threadId: 1 })).body.stackFrames[0]!;
    const price = await client.evaluateRequest({ expression: "tea.price", frameId: frame.id, context: "watch" });
    expect(price.body.result).toBe("2.5");
    const [pid] = starts(pids);
    expect(pid).toBeDefined();
    await client.disconnectRequest({});
    child.stdin!.end();
    await processGone(pid!, EXIT_BOUND_MS);
    expect(await exit).toBe(0);
  }, 120_000);
});
