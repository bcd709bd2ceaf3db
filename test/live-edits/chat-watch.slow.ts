// `autograms chat --watch`, a real process talking over piped stdin while the test edits its
// files: each build's tool module is loaded in a worker thread, never in the command's own thread;
// a save of the module loads it again in a fresh worker and the replaced one ends; a save of the
// agent file alone changes the next reply without loading the module again; what the terminal
// shows (replies, prints, errors with their code frame) is what chat without --watch shows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { autograms, bin, cliTestFolder, replies, root } from "../cli/support/run-cli.js";
import { promptedAgent } from "./support/prompted-agent.js";
import { told, until } from "./support/serve-process.js";

const folder = cliTestFolder("autograms-chat-watch-");
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
});

const AGENT = `import { Autogram, chatExact } from "@autograms/runtime";
import { price } from "./prices.js";

export default class Stall extends Autogram {
  cost = 0;

  main() {
    chatExact("Hello!");
    while (true) {
      this.cost = price(this._last_user_reply);
      console.log(\`cost is \${this.cost}\`);
      chatExact(\`That is \${this.cost} pence.\`, { name: "price" });
      chatExact("Thanks!", { name: "thanks" });
    }
  }
}
`;
// Its top-level code records each load and the thread it ran in, and while the thread runs it
// says so every 50 ms in beat-THREAD (a worker that ended stops beating); "boom" makes it throw.
const PRICES = (pence: number) => `import { appendFileSync, writeFileSync } from "node:fs";
import { isMainThread, threadId } from "node:worker_threads";

appendFileSync("loads.log", (isMainThread ? "main" : "worker") + " " + threadId + "\\n");
setInterval(() => writeFileSync("beat-" + threadId, String(Date.now())), 50).unref();

export function price(item: string): number {
  if (item === "boom") throw new Error("no price for boom");
  return ${pence};
}
`;

/** `autograms chat agent.ts --offline --watch` in `dir`, its stdin a pipe the test writes lines to. */
function chatWatching(dir: string) {
  const child = spawn(process.execPath, [bin, "chat", join(dir, "agent.ts"), "--offline", "--watch"], { cwd: dir });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  /** Sends a line and resolves with the agent's reply to it. */
  const say = async (line: string) => {
    const before = replies(stdout).length;
    child.stdin!.write(`${line}\n`);
    await until(
      () => replies(stdout).length > before,
      () => `a reply to '${line}':\n${stdout}\n${stderr}`,
    );
    return replies(stdout).at(-1)!;
  };
  return { say, stdout: () => stdout, stderr: () => stderr, end: () => child.stdin!.end(), exited };
}

describe("autograms chat --watch", () => {
  beforeAll(() => symlinkSync(join(root, "node_modules"), join(folder(), "node_modules"), "dir"));

  it("loads the tool module in a worker per save of it, never in its own thread; a save of the agent alone loads nothing", async () => {
    const dir = join(folder(), "stall");
    mkdirSync(dir);
    const at = (name: string) => join(dir, name);
    writeFileSync(at("agent.ts"), AGENT);
    writeFileSync(at("prices.ts"), PRICES(30));
    const chat = chatWatching(dir);
    const loads = () => readFileSync(at("loads.log"), "utf8").split("\n").filter(Boolean);
    /** The threads that beat in the last 300 ms: the workers alive. */
    const beating = () =>
      readdirSync(dir).filter((f) => f.startsWith("beat-") && Date.now() - statSync(at(f)).mtimeMs < 300);
    let builds = 0;
    const save = async (name: string, text: string) => {
      writeFileSync(at(name), text);
      await told(chat.stderr, /\(the next turn runs on the new build\)/, ++builds);
    };

    await until(
      () => replies(chat.stdout()).length === 1,
      () => `the opening:\n${chat.stdout()}\n${chat.stderr()}`,
    );
    expect(replies(chat.stdout())).toEqual(["Hello!"]);
    expect(await chat.say("apple")).toBe("That is 30 pence.");
    expect(chat.stderr()).toMatch(/^\[log agent\.ts:11\] cost is 30$/m);
    expect(loads()).toEqual([expect.stringMatching(/^worker \d+$/)]);

    // Three saves of the module: three loads more, each in a fresh worker; the one before ends.
    for (const pence of [41, 42, 43]) await save("prices.ts", PRICES(pence));
    expect(await chat.say("ok")).toBe("Thanks!");
    expect(await chat.say("apple")).toBe("That is 43 pence.");
    expect(chat.stderr()).toMatch(/^\[log agent\.ts:11\] cost is 43$/m);
    expect(loads()).toHaveLength(4);
    expect(loads().every((l) => l.startsWith("worker "))).toBe(true);
    expect(new Set(loads()).size).toBe(4);
    await until(
      () => beating().length === 1,
      () => `one worker beating, not ${beating().join(", ")}`,
    );
    const newest = `beat-${loads().at(-1)!.split(" ")[1]}`;
    expect(beating()).toEqual([newest]);

    // Saves of the agent alone: the next turn says the new text; no load, the same worker.
    await save("agent.ts", AGENT.replace('"Thanks!"', '"Thank you!"'));
    await save("agent.ts", AGENT.replace('"Thanks!"', '"Many thanks!"'));
    expect(await chat.say("ok")).toBe("Many thanks!");
    expect(await chat.say("pear")).toBe("That is 43 pence.");
    expect(loads()).toHaveLength(4);
    await new Promise((r) => setTimeout(r, 300));
    expect(beating()).toEqual([newest]);

    // An edit where the conversation stands cannot take it: it goes on with the build it has.
    writeFileSync(at("agent.ts"), AGENT.replace("That is", "It is").replace('"Thanks!"', '"Many thanks!"'));
    await told(
      chat.stderr,
      /\(the conversation cannot resume on the new build: .*node 'price'.*; it goes on with the previous build/,
      1,
    );
    expect(await chat.say("ok")).toBe("Many thanks!");
    // A tool module that throws as it loads does not build; the last good build goes on.
    writeFileSync(at("prices.ts"), `throw new Error("half-written");\n${PRICES(50)}`);
    await told(chat.stderr, /\(the edit does not build: .*half-written.*; the last good build goes on\)/, 1);
    expect(await chat.say("apple")).toBe("That is 43 pence.");
    expect(loads().filter((l) => l.startsWith("main"))).toEqual([]);
    chat.end();
    expect(await chat.exited).toBe(0);
  }, 120_000);

  it("says when the conversation keeps the old text of an edited setPrompt", async () => {
    const dir = join(folder(), "prompted");
    mkdirSync(dir);
    writeFileSync(join(dir, "agent.ts"), promptedAgent("You are terse."));
    const chat = chatWatching(dir);
    await until(
      () => replies(chat.stdout()).length === 1,
      () => `the opening:\n${chat.stdout()}\n${chat.stderr()}`,
    );
    writeFileSync(join(dir, "agent.ts"), promptedAgent("You are friendly."));
    await told(
      chat.stderr,
      /\(the conversation keeps its old prompt of main: the edited setPrompt text reaches new conversations\)/,
      1,
    );
    chat.end();
    expect(await chat.exited).toBe(0);
  }, 120_000);

  it("keeps the conversation in a thread of a store: each turn played in the worker, committed whole", async () => {
    const dir = join(folder(), "thread");
    mkdirSync(dir);
    writeFileSync(join(dir, "agent.ts"), AGENT);
    writeFileSync(join(dir, "prices.ts"), PRICES(30));
    const store = ["--store", `sqlite:${join(dir, "threads.db")}`];
    const chat = (input: string) =>
      autograms(["chat", "agent.ts", "--offline", "--watch", ...store, "--thread", "t"], { cwd: dir, input });
    const first = await chat("apple\nok\n");
    expect([first.code, replies(first.stdout)]).toEqual([0, ["Hello!", "That is 30 pence.", "Thanks!"]]);
    const again = await chat("pear\n");
    expect(again.stderr).toContain("(resuming thread t of");
    expect(replies(again.stdout)).toEqual(["Thanks!", "That is 30 pence."]);
    const exported = await autograms(["threads", "export", "t", ...store], { cwd: dir });
    const { turns } = JSON.parse(exported.stdout) as { turns: { user: string | null; trace: { kind: string }[] }[] };
    expect(turns.map((t) => t.user)).toEqual([null, "apple", "ok", "pear"]);
    // The trace a worker packed is the turn's whole trace: the tool's code step and the print.
    expect(turns[3]!.trace.map((e) => e.kind)).toEqual(expect.arrayContaining(["user", "code", "log", "exact"]));
    expect(readFileSync(join(dir, "loads.log"), "utf8")).toMatch(/^worker \d+\nworker \d+\n$/);
  }, 60_000);

  it("shows a tool's error as chat without --watch does: at its agent line, with a code frame", async () => {
    const dir = join(folder(), "boom");
    mkdirSync(dir);
    writeFileSync(join(dir, "agent.ts"), AGENT);
    writeFileSync(join(dir, "prices.ts"), PRICES(30));
    const run = (watch: boolean) =>
      autograms(["chat", "agent.ts", "--offline", ...(watch ? ["--watch"] : [])], { cwd: dir, input: "boom\n" });
    const [plain, watching] = await Promise.all([run(false), run(true)]);
    expect(plain.code).toBe(1);
    expect(watching.code).toBe(1);
    expect(watching.stdout).toBe(plain.stdout);
    expect(plain.stderr).toMatch(/agent\.ts:10:\d+ - error sandbox: .*no price for boom/);
    expect(plain.stderr).toContain("this.cost = price(this._last_user_reply);");
    expect(watching.stderr).toBe(plain.stderr);
    expect(existsSync(join(dir, "loads.log"))).toBe(true);
    expect(readFileSync(join(dir, "loads.log"), "utf8")).toMatch(/^main \d+\nworker \d+\n$|^worker \d+\nmain \d+\n$/);
  }, 60_000);
  it("writes the same trace and prints as chat without --watch: long values and prints whole", async () => {
    const dir = join(folder(), "long");
    mkdirSync(dir);
    writeFileSync(
      join(dir, "agent.ts"),
      `import { Autogram, chatExact } from "@autograms/runtime";
import { words } from "./words.js";

export default class Long extends Autogram {
  long = "";

  main() {
    chatExact("How many words?");
    this.long = words(this._last_user_reply);
    console.log(this.long);
    chatExact(\`That is \${this.long.length} characters.\`);
  }
}
`,
    );
    writeFileSync(join(dir, "words.ts"), `export const words = (n: string) => "word ".repeat(Number(n));\n`);
    const run = (watch: boolean) =>
      autograms(["chat", "agent.ts", "--offline", "--trace", `${watch}.jsonl`, ...(watch ? ["--watch"] : [])], {
        cwd: dir,
        input: "2000\n",
      });
    const [plain, watching] = await Promise.all([run(false), run(true)]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(watching.stdout).toBe(plain.stdout);
    expect(replies(plain.stdout).at(-1)).toBe("That is 10000 characters.");
    // The print is whole on the terminal, with --watch too (the worker sends its steps whole).
    expect(plain.stderr).toContain("word ".repeat(2000).trim());
    expect(watching.stderr).toBe(plain.stderr);
    // The trace files hold the same steps, a variable's 10,000 characters and the print whole.
    const steps = (file: string) =>
      readFileSync(join(dir, file), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const { kind, node, text, changes } = JSON.parse(line) as Record<string, unknown>;
          return { kind, node, text, changes };
        });
    const traced = steps("true.jsonl");
    expect(traced).toEqual(steps("false.jsonl"));
    expect(JSON.stringify(traced)).not.toContain("$omitted");
    expect(traced.find((e) => e.kind === "log")?.text).toBe("word ".repeat(2000));
  }, 60_000);
});
