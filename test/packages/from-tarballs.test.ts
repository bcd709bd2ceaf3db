// The packages as a user gets them: every workspace packed by scripts/pack.mjs (what `npm publish`
// would send), a project started with `npm create autograms` from the create-autograms tarball in
// a temporary folder outside the repository, the tarballs installed there (docs/install.md), and
// then, from that folder only: the starter's own test, `npx autograms compile` of an agent written
// here, `npx tsc --noEmit --strict` (the runtime's types resolve), a piped offline chat, a program
// using the API, and `npx autograms init`. One install serves them all, to keep the suite quick.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const npx = process.platform === "win32" ? "npx.cmd" : "npx";

/** The environment of a user's shell: none of the npm settings of the test run, nor model keys. */
function userEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/^(npm_|OPENAI_)/i.test(k) && k !== "INIT_CWD" && k !== "NODE_OPTIONS") env[k] = v;
  }
  return env;
}

let temp: string;
let project: string;
let tarballs: string[];

/** Runs a command in the project as a user would; the result with its output, whatever the exit. */
function sh(command: string, args: string[], input = "", cwd = project): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(command, args, { cwd, input, encoding: "utf8", env: userEnv() });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs a command that must succeed, failing the test with its output otherwise. */
function ok(command: string, args: string[], input = "", cwd = project): string {
  const r = sh(command, args, input, cwd);
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

beforeAll(() => {
  const buildError = inject("cliBuildError");
  if (buildError) throw new Error(buildError);
  temp = mkdtempSync(join(tmpdir(), "autograms-packages-"));
  // The build is the test run's own (test/support/build-cli.ts); pack what it built.
  tarballs = execFileSync(process.execPath, [join(root, "scripts/pack.mjs"), "--no-build", join(temp, "tarballs")], { encoding: "utf8" })
    .trim().split("\n");
  const create = tarballs.find((t) => /create-autograms-[^/\\]*\.tgz$/.test(t))!;
  // `npm create autograms app`, with the package taken from its tarball instead of the registry.
  ok(npm, ["exec", "--yes", `--package=${create}`, "--", "create-autograms", "app"], "", temp);
  project = join(temp, "app");
  // --prefer-offline: what the repository's own install put in npm's cache is used without asking.
  // The store and the server (which needs the store) are left out: a starter does not need them,
  // and the store's better-sqlite3 builds natively (minutes).
  ok(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", ...tarballs.filter((t) => !/autograms-(store|server)-/.test(t))]);
}, 300_000);

afterAll(() => {
  if (temp) rmSync(temp, { recursive: true, force: true });
});

// npm and tsc on a busy machine: far more than the default 30 s per test.
describe("the packages installed from their tarballs into a new project", { timeout: 180_000 }, () => {
  it("packs every workspace, with a license, types in its exports, and its version in step", () => {
    const root_ = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; workspaces: string[] };
    expect(tarballs).toHaveLength(root_.workspaces.length);
    for (const dir of root_.workspaces) {
      const pkg = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as Record<string, unknown>;
      expect([dir, pkg.version, pkg.license]).toEqual([dir, root_.version, "MIT"]);
      expect(existsSync(join(root, dir, "LICENSE")), `${dir}/LICENSE`).toBe(true);
      const main = (pkg.exports as Record<string, unknown> | undefined)?.["."] as { types?: string } | undefined;
      if (main) expect(main.types, `${dir}: exports["."].types`).toMatch(/\.d\.ts$/);
    }
  });

  it("npm create autograms writes the starter, and the starter's own test passes", () => {
    expect(readdirSync(project).sort()).toEqual([".gitignore", ".vscode", "README.md", "agent.ts", "node_modules", "package-lock.json", "package.json", "test", "tsconfig.json"]);
    const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as { name: string; scripts: Record<string, string> };
    expect(pkg.name).toBe("app");
    expect(Object.keys(pkg.scripts)).toEqual(expect.arrayContaining(["dev", "test"]));
    const out = ok(npm, ["test"]);
    expect(out).toMatch(/1 passed/);
  });

  it("compiles an agent written here with npx autograms compile", () => {
    writeFileSync(join(project, "counter.ts"), COUNTER);
    const r = sh(npx, ["autograms", "compile", "counter.ts"]);
    expect(r).toMatchObject({ status: 0, stdout: "counter.graph.json (7 nodes)\n" });
    const graph = JSON.parse(readFileSync(join(project, "counter.graph.json"), "utf8")) as { agent: string; nodes: { name: string }[] };
    expect(graph.agent).toBe("Counter");
    expect(existsSync(join(project, "counter.graph.json.map"))).toBe(true);
  });

  it("type-checks under tsc --strict: the runtime's types resolve, so a wrong agent is an error", () => {
    writeFileSync(join(project, "counter.ts"), COUNTER);
    writeFileSync(join(project, "wrong.ts"), COUNTER.replace("this.count += 1;", "this.count += \"one\"; this.nothing();").replace("class Counter", "class Wrong"));
    const r = sh(npx, ["tsc", "--noEmit", "--strict", "-p", "."]);
    // One run checks both: errors in wrong.ts only, so counter.ts, the starter and its test are clean.
    expect(r.status).toBe(2);
    const errors = r.stdout.trim().split("\n").filter((l) => /^\S+\(\d+,\d+\): error/.test(l));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e.startsWith("wrong.ts(")), r.stdout).toBe(true);
    expect(r.stdout).toContain("Type 'string' is not assignable to type 'number'.");
    expect(r.stdout).toContain("Property 'nothing' does not exist on type 'Wrong'.");
    rmSync(join(project, "wrong.ts"));
  });

  it("chats offline through a pipe", () => {
    writeFileSync(join(project, "counter.ts"), COUNTER);
    const out = ok(npx, ["autograms", "chat", "counter.ts", "--offline"], "again\nagain\nstop\n");
    expect(out.split("\n").filter((l) => l.startsWith("Agent: "))).toEqual([
      "Agent: Say 'again' to count.",
      "Agent: That makes 1. Again?",
      "Agent: That makes 2. Again?",
      "Agent: Counted to 2. Bye!",
    ]);
  });

  it("runs a program that compiles the agent and holds a conversation through the API", () => {
    writeFileSync(join(project, "counter.ts"), COUNTER);
    writeFileSync(join(project, "program.mjs"), PROGRAM);
    expect(JSON.parse(ok(process.execPath, ["program.mjs"]))).toEqual({
      diagnostics: [], replies: ["Say 'again' to count.", "That makes 1. Again?", "Counted to 1. Bye!"], done: true, count: 1,
    });
  });

  it("npx autograms init writes the same starter as npm create autograms", () => {
    ok(npx, ["autograms", "init", "second"]);
    for (const file of ["agent.ts", "test/agent.test.ts", "tsconfig.json", ".gitignore", ".vscode/launch.json"]) {
      expect(readFileSync(join(project, "second", file), "utf8"), file).toBe(readFileSync(join(project, file), "utf8"));
    }
    expect(sh(npx, ["autograms", "init", "second"])).toMatchObject({ status: 1, stderr: expect.stringMatching(/^autograms init: second is not empty/) });
  });
});

const COUNTER = `import { Autogram, chatExact } from "@autograms/runtime";

export default class Counter extends Autogram {
  count = 0;

  main() {
    chatExact("Say 'again' to count.", { name: "ask" });
    while (this._last_user_reply.includes("again")) {
      this.count += 1;
      chatExact(\`That makes \${this.count}. Again?\`, { name: "counted" });
    }
    chatExact(\`Counted to \${this.count}. Bye!\`, { name: "done", transitions: ["quit"] });
  }
}
`;

const PROGRAM = `import { readFileSync } from "node:fs";
import { compile } from "@autograms/compiler";
import { Agent, ScriptedModel } from "@autograms/runtime";

const { graph, diagnostics } = compile(readFileSync("counter.ts", "utf8"), { fileName: "counter.ts" });
// The agent asks the model nothing: a scripted model with an empty script proves it.
const agent = new Agent(graph, { model: new ScriptedModel({}) });
const replies = [];
let turn = await agent.reply("");
replies.push(turn.reply);
for (const said of ["again", "stop"]) {
  turn = await agent.reply(said, turn.memory);
  replies.push(turn.reply);
}
console.log(JSON.stringify({ diagnostics, replies, done: turn.done, count: turn.memory.stack[0].vars.count }));
`;
