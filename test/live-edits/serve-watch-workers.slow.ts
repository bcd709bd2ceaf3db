// `autograms serve --watch --workers 1`, a real process: each build's tool module is loaded by
// worker threads of its own, never by the server's thread; a run in progress during a save
// finishes with the tool it started with; the workers of earlier builds end with their last run,
// so after many saves the process runs one build's worth of them; a save of the agent file alone
// keeps the workers (the agent made again there, the module not loaded again). Each save compiles
// the agent and most start a worker: a dozen builds take their time on a busy machine.
import { beforeAll, describe, expect, it } from "vitest";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { cliTestFolder, root } from "../cli/support/run-cli.js";
import { chatBody, json, textOf, uiChunks, uiMessageOf, userMessage } from "../server/support/harness.js";
import { promptedAgent } from "./support/prompted-agent.js";
import { serveWatching, told, until } from "./support/serve-process.js";
import { editWhileServing } from "./support/watch-scenario.js";

const folder = cliTestFolder("autograms-serve-watch-workers-");

const AGENT = `import { Autogram, chatExact, exec_node } from "@autograms/runtime";
import { price, shout } from "./prices.js";

export default class Stall extends Autogram {
  cost: unknown = 0;

  main() {
    chatExact("Hello!");
    this.cost = price("apple");
    chatExact(\`That is \${this.cost} pence.\`);
    this.cost = price("pear");
    chatExact(\`Now \${this.cost} pence.\`);
    exec_node({ action: shout });
    chatExact("Bye.", { transitions: ["quit"] });
  }
}
`;
// Its top-level code records each load and the thread it ran in; while a file 'hold' exists, a
// call waits (a run in progress for as long as the test wants), saying so in 'held.log'.
const PRICES = (pence: number) => `import { appendFileSync, existsSync } from "node:fs";
import { isMainThread } from "node:worker_threads";
import { defineAction } from "@autograms/runtime";

appendFileSync("loads.log", (isMainThread ? "main" : "worker") + "\\n");

export async function price(item: string): Promise<number> {
  if (existsSync("hold")) {
    appendFileSync("held.log", item + "\\n");
    while (existsSync("hold")) await new Promise((r) => setTimeout(r, 20));
  }
  return item.length * 0 + ${pence};
}

export const shout = defineAction({
  name: "shout",
  instruction: () => ({ reply: "${pence} PENCE!" }),
});
`;

/** The stall agent and its prices served in a folder of its own, and how to talk to it. */
async function stall(name: string) {
  const dir = join(folder(), name);
  mkdirSync(dir);
  const at = (file: string) => join(dir, file);
  writeFileSync(at("agent.ts"), AGENT);
  writeFileSync(at("prices.ts"), PRICES(30));
  const server = await serveWatching(dir, "1");
  const loads = () => readFileSync(at("loads.log"), "utf8").split("\n").filter(Boolean);
  const workerThreads = async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    return Number(/^autograms_worker_threads (\d+)$/m.exec(text)![1]);
  };
  let n = 0;
  const say = async (thread: string, text: string) => {
    const res = await fetch(`${server.url}/api/chat`, json(chatBody(thread, [userMessage(`m${++n}`, text)])));
    expect(res.status).toBe(200);
    return textOf(await uiMessageOf(await uiChunks(res.body!))).join(" ");
  };
  return { at, server, loads, workerThreads, say };
}

describe("autograms serve --watch --workers 1", () => {
  // Each agent's folder (the one watched) sits beside a node_modules with @autograms/runtime and the MCP SDK.
  beforeAll(() => symlinkSync(join(root, "node_modules"), join(folder(), "node_modules"), "dir"));

  it("loads each build's tool module in a fresh worker, finishes a run in progress on its build, and ends the old workers", async () => {
    const { at, server, loads, workerThreads, say } = await stall("stall");
    let builds = 0;
    const save = async (pence: number) => {
      writeFileSync(at("prices.ts"), PRICES(pence));
      await told(server.stderr, /\(serving the new build/, ++builds);
    };

    expect(await say("open", "hi")).toBe("Hello! That is 30 pence.");
    expect(loads()).toEqual(["worker"]);

    // The tool's return value edited while the thread is open: its next turn calls the new one.
    await save(40);
    expect(await say("open", "ok")).toBe("Now 40 pence.");
    expect(loads()).toEqual(["worker", "worker"]);

    // A run in progress during a save (its tool call held) finishes with the tool it started with,
    // while a turn that starts after the save gets the new one; the old worker lives until then.
    writeFileSync(at("hold"), "");
    const held = say("held", "hi");
    await until(
      () => existsSync(at("held.log")),
      () => "the held run's tool call",
    );
    await save(50);
    expect(await workerThreads()).toBe(2);
    rmSync(at("hold"));
    expect(await held).toBe("Hello! That is 40 pence.");
    expect(await say("fresh", "hi")).toBe("Hello! That is 50 pence.");
    await until(
      async () => (await workerThreads()) === 1,
      () => "the old build's worker to end",
    );

    // Many saves: a load each, in a worker each time, and one build's worth of workers left running.
    for (const pence of [61, 62, 63]) await save(pence);
    expect(await say("fresh", "ok")).toBe("Now 63 pence.");
    // The action's hook runs in the workers; the replay that rebuilds what a turn sent runs it not
    // again, but gives back the result it recorded.
    expect(await say("fresh", "ok")).toBe("63 PENCE!");
    const calls = await (await fetch(`${server.url}/api/threads/fresh/turns/4/calls`)).json();
    expect(calls).toMatchObject({ seq: 4, user: "ok", stopped: null });
    expect(calls.events).toContainEqual(
      expect.objectContaining({ kind: "custom", hook: "instruction", reply: "63 PENCE!" }),
    );
    await until(
      async () => (await workerThreads()) === 1,
      () => "the earlier builds' workers to end",
    );
    expect(loads()).toEqual(Array(1 + builds).fill("worker"));
    // The playground shows the modules the workers loaded, as saved last.
    const { files } = (await (await fetch(`${server.url}/playground/sources`)).json()) as {
      files: { path: string; text: string; role: string }[];
    };
    expect(files.find((f) => f.role === "module")).toMatchObject({
      path: expect.stringMatching(/prices\.ts$/),
      text: PRICES(63),
    });

    // A save whose module throws as it loads does not build: the last good build, and its worker, go on.
    writeFileSync(at("prices.ts"), `throw new Error("half-written");\n${PRICES(70)}`);
    await told(server.stderr, /\(the edit does not build: .*half-written.*; the last good build goes on\)/, 1);
    expect(await say("other", "hi")).toBe("Hello! That is 63 pence.");
    expect(await workerThreads()).toBe(1);
  }, 120_000);

  it("keeps the workers when only the agent file is saved: the next turns say the new text, a run in progress ends on its build", async () => {
    const { at, server, loads, workerThreads, say } = await stall("agent-only");
    expect(await say("first", "hi")).toBe("Hello! That is 30 pence.");

    // A run held in its tool call while the agent file alone is saved twice.
    writeFileSync(at("hold"), "");
    const held = say("held", "hi");
    await until(
      () => existsSync(at("held.log")),
      () => "the held run's tool call",
    );
    writeFileSync(at("agent.ts"), AGENT.replace("That is", "It costs"));
    await told(server.stderr, /\(serving the new build/, 1);
    writeFileSync(at("agent.ts"), AGENT.replace("That is", "It comes to"));
    await told(server.stderr, /\(serving the new build/, 2);
    // No worker was started, no module loaded again: the worker there made the new agents.
    expect(await workerThreads()).toBe(1);
    expect(loads()).toEqual(["worker"]);
    rmSync(at("hold"));
    expect(await held).toBe("Hello! That is 30 pence.");
    expect(await say("fresh", "hi")).toBe("Hello! It comes to 30 pence.");
    expect(loads()).toEqual(["worker"]);

    // A save of the module: loaded again, in a new worker; the old one ends.
    writeFileSync(at("prices.ts"), PRICES(35));
    await told(server.stderr, /\(serving the new build/, 3);
    expect(await say("fresh", "ok")).toBe("Now 35 pence.");
    expect(loads()).toEqual(["worker", "worker"]);
    await until(
      async () => (await workerThreads()) === 1,
      () => "the earlier build's worker to end",
    );
  }, 60_000);

  // The server's thread holds each build's MCP servers for its pool; they stop with the build.
  // An agent with MCP tools gets new workers on every save (its MCP servers start again).
  it("stops each build's MCP servers once the build is replaced", async () => {
    const dir = join(folder(), "shop");
    mkdirSync(dir);
    for (const f of ["agent.ts", "mcp-tools.d.ts", "server.mjs"])
      copyFileSync(join(root, "samples/shop", f), join(dir, f));
    // The shop's server, saying which process each start of it is.
    writeFileSync(
      join(dir, "logged-server.mjs"),
      `import { appendFileSync } from "node:fs";\nappendFileSync("mcp-pids.log", process.pid + "\\n");\nawait import("./server.mjs");\n`,
    );
    writeFileSync(
      join(dir, ".mcp.json"),
      JSON.stringify({ mcpServers: { shop: { command: "node", args: ["logged-server.mjs"] } } }),
    );
    // Named on the command line: approved (a .mcp.json found beside the agent would need --approve-mcp).
    const server = await serveWatching(dir, "1", ["--mcp-config", join(dir, ".mcp.json")]);
    const pids = () => readFileSync(join(dir, "mcp-pids.log"), "utf8").split("\n").filter(Boolean).map(Number);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const opening = await fetch(`${server.url}/api/threads/t/runs`, json({ message: null }));
    expect(await opening.text()).toContain("Tea is 2.5 EUR today");
    for (let i = 1; i <= 3; i++) {
      appendFileSync(join(dir, "agent.ts"), `// save ${i}\n`);
      await told(server.stderr, /\(serving the new build/, i);
    }
    await until(
      () => pids().length === 4 && pids().filter(alive).length === 1,
      () => `one MCP server left running of ${pids().join(", ")} (alive: ${pids().filter(alive).join(", ")})`,
    );
    expect(alive(pids().at(-1)!)).toBe(true);
  }, 60_000);

  it(
    "serves each edit: next turns, a broken build, stale threads and migrate",
    () => editWhileServing(folder()),
    60_000,
  );

  it("counts the threads that keep an edited setPrompt's old text", async () => {
    const dir = join(folder(), "prompted");
    mkdirSync(dir);
    writeFileSync(join(dir, "agent.ts"), promptedAgent("You are terse."));
    const server = await serveWatching(dir, "1");
    const res = await fetch(`${server.url}/api/chat`, json(chatBody("p1", [userMessage("m1", "hi")])));
    await uiMessageOf(await uiChunks(res.body!));
    writeFileSync(join(dir, "agent.ts"), promptedAgent("You are friendly."));
    await told(server.stderr, /\(serving the new build: every thread of the agent can resume on it\)/, 1);
    await told(server.stderr, /1 thread keeps the old setPrompt text \(p1\): autograms threads migrate ID/, 1);
  });
});
