// The packages as a user gets them: every workspace packed by scripts/pack.mjs (what `npm publish`
// would send), a project started with `npm create autograms` from the create-autograms tarball in
// a temporary folder outside the repository, the tarballs installed there (docs/install.md), and
// then, from that folder only: the starter's own test, `npx autograms compile` of an agent written
// here, `npx tsc --noEmit --strict` (the runtime's types resolve), a piped offline chat, a program
// using the API, and `npx autograms init`. One install serves them all. Then the store's and the
// server's tarballs join them: a program serving the agent over HTTP on a SQLite store, its types
// under tsc, and `npx autograms serve`. A minute of npm and tsc: the slow tier (`npm run
// test:scale`); `npm test` checks what the tarballs hold instead (test/packages/packed.test.ts).
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from "vitest";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
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
function sh(
  command: string,
  args: string[],
  input = "",
  cwd = project,
): { status: number | null; stdout: string; stderr: string } {
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
  tarballs = execFileSync(process.execPath, [join(root, "scripts/pack.mjs"), "--no-build", join(temp, "tarballs")], {
    encoding: "utf8",
  })
    .trim()
    .split("\n");
  const create = tarballs.find((t) => /create-autograms-[^/\\]*\.tgz$/.test(t))!;
  // `npm create autograms app`, with the package taken from its tarball instead of the registry.
  ok(npm, ["exec", "--yes", `--package=${create}`, "--", "create-autograms", "app"], "", temp);
  project = join(temp, "app");
  // --prefer-offline: what the repository's own install put in npm's cache is used without asking.
  // The store and the server (which needs the store) are left out: a starter does not need them,
  // and the store's better-sqlite3 builds natively (minutes).
  ok(npm, [
    "install",
    "--prefer-offline",
    "--no-audit",
    "--no-fund",
    ...tarballs.filter((t) => !/autograms-(store|server)-/.test(t)),
  ]);
}, 300_000);

afterAll(() => {
  if (temp) rmSync(temp, { recursive: true, force: true });
});

// npm and tsc on a busy machine: far more than the default 30 s per test.
describe("the packages installed from their tarballs into a new project", { timeout: 180_000 }, () => {
  it("packs every workspace but the private ones (studio, samples/web), with a license, types in its exports, and its version in step", () => {
    const root_ = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      version: string;
      workspaces: string[];
    };
    const manifest = (dir: string) =>
      JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as Record<string, unknown>;
    const packages = root_.workspaces.filter((dir) => !manifest(dir).private);
    expect(root_.workspaces.filter((dir) => !packages.includes(dir))).toEqual(["studio", "samples/web"]);
    expect(tarballs).toHaveLength(packages.length);
    for (const dir of packages) {
      const pkg = manifest(dir);
      expect([dir, pkg.version, pkg.license]).toEqual([dir, root_.version, "MIT"]);
      expect(existsSync(join(root, dir, "LICENSE")), `${dir}/LICENSE`).toBe(true);
      const main = (pkg.exports as Record<string, unknown> | undefined)?.["."] as { types?: string } | undefined;
      if (main) expect(main.types, `${dir}: exports["."].types`).toMatch(/\.d\.ts$/);
    }
  });

  it("npm create autograms writes the starter, and the starter's own test passes", () => {
    expect(readdirSync(project).sort()).toEqual([
      ".gitignore",
      ".vscode",
      "README.md",
      "agent.ts",
      "node_modules",
      "package-lock.json",
      "package.json",
      "test",
      "tsconfig.json",
    ]);
    const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as {
      name: string;
      scripts: Record<string, string>;
    };
    expect(pkg.name).toBe("app");
    expect(Object.keys(pkg.scripts)).toEqual(expect.arrayContaining(["dev", "test"]));
    const out = ok(npm, ["test"]);
    expect(out).toMatch(/1 passed/);
  });

  it("compiles an agent written here with npx autograms compile", () => {
    writeFileSync(join(project, "counter.ts"), COUNTER);
    const r = sh(npx, ["autograms", "compile", "counter.ts"]);
    expect(r).toMatchObject({ status: 0, stdout: "counter.graph.json (7 nodes)\n" });
    const graph = JSON.parse(readFileSync(join(project, "counter.graph.json"), "utf8")) as {
      agent: string;
      nodes: { name: string }[];
    };
    expect(graph.agent).toBe("Counter");
    expect(existsSync(join(project, "counter.graph.json.map"))).toBe(true);
  });

  it("type-checks under tsc --strict: the runtime's types resolve, so a wrong agent is an error", () => {
    writeFileSync(join(project, "counter.ts"), COUNTER);
    writeFileSync(
      join(project, "wrong.ts"),
      COUNTER.replace("this.count += 1;", 'this.count += "one"; this.nothing();').replace(
        "class Counter",
        "class Wrong",
      ),
    );
    const r = sh(npx, ["tsc", "--noEmit", "--strict", "-p", "."]);
    // One run checks both: errors in wrong.ts only, so counter.ts, the starter and its test are clean.
    expect(r.status).toBe(2);
    const errors = r.stdout
      .trim()
      .split("\n")
      .filter((l) => /^\S+\(\d+,\d+\): error/.test(l));
    expect(errors.length).toBeGreaterThan(0);
    expect(
      errors.every((e) => e.startsWith("wrong.ts(")),
      r.stdout,
    ).toBe(true);
    expect(r.stdout).toContain("Type 'string' is not assignable to type 'number'.");
    expect(r.stdout).toContain("Property 'nothing' does not exist on type 'Wrong'.");
    rmSync(join(project, "wrong.ts"));
  });

  it("type-checks with skipLibCheck: false and no @types/node of the project's own (types: [])", () => {
    writeFileSync(join(project, "counter.ts"), COUNTER);
    // The user's project lists neither Node's types nor the DOM's: the runtime's own dependency on
    // @types/node, and the reference its .d.ts carry, must make every declaration it pulls in
    // (its own, the openai client's, undici's) check.
    ok(npm, ["uninstall", "--prefer-offline", "--no-audit", "--no-fund", "@types/node"]);
    writeFileSync(
      join(project, "tsconfig.alone.json"),
      JSON.stringify({
        extends: "./tsconfig.json",
        compilerOptions: { skipLibCheck: false, types: [], lib: ["ES2023"] },
        include: ["agent.ts", "counter.ts"],
      }),
    );
    const r = sh(npx, ["tsc", "-p", "tsconfig.alone.json"]);
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
    rmSync(join(project, "tsconfig.alone.json"));
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
      diagnostics: [],
      replies: ["Say 'again' to count.", "That makes 1. Again?", "Counted to 1. Bye!"],
      done: true,
      count: 1,
    });
  });

  it("npx autograms init writes the same starter as npm create autograms", () => {
    ok(npx, ["autograms", "init", "second"]);
    for (const file of ["agent.ts", "test/agent.test.ts", "tsconfig.json", ".gitignore", ".vscode/launch.json"]) {
      expect(readFileSync(join(project, "second", file), "utf8"), file).toBe(readFileSync(join(project, file), "utf8"));
    }
    expect(sh(npx, ["autograms", "init", "second"])).toMatchObject({
      status: 1,
      stderr: expect.stringMatching(/^autograms init: second is not empty/),
    });
  });
});

describe("the store and the server from their tarballs, in the same project", { timeout: 180_000 }, () => {
  beforeAll(() => {
    // better-sqlite3 builds natively on install (a minute or more of both cores, which would slow
    // the whole suite): installed without its build script, it gets the addon this repository's own
    // install built, the same version for the same Node. Everything else comes from the tarballs
    // and the registry as for a user, who installs the driver of the store they use (an optional
    // peer of the store).
    ok(npm, [
      "install",
      "--ignore-scripts",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "better-sqlite3@12.11.1",
      ...tarballs.filter((t) => /autograms-(store|server)-/.test(t)),
    ]);
    const addon = "node_modules/better-sqlite3/build/Release/better_sqlite3.node";
    mkdirSync(join(project, "node_modules/better-sqlite3/build/Release"), { recursive: true });
    copyFileSync(join(root, addon), join(project, addon));
    writeFileSync(join(project, "counter.ts"), COUNTER);
  }, 300_000);

  it("serves the agent from a program: @autograms/server on an @autograms/store SQLite file", () => {
    writeFileSync(join(project, "server.mjs"), SERVER_PROGRAM);
    expect(JSON.parse(ok(process.execPath, ["server.mjs"]))).toEqual({
      listening: true,
      replies: ["Say 'again' to count.", "That makes 1. Again?"],
      turns: 2,
    });
  });

  it("type-checks a program using the server's and the store's API under tsc --strict", () => {
    writeFileSync(join(project, "server-types.ts"), SERVER_TYPES);
    const r = sh(npx, [
      "tsc",
      "--ignoreConfig",
      "--noEmit",
      "--strict",
      "--module",
      "nodenext",
      "--target",
      "es2022",
      "server-types.ts",
    ]);
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
    rmSync(join(project, "server-types.ts"));
  });

  it("@autograms/store/testing registers the shared suite with the program's own runner, and needs no vitest", () => {
    writeFileSync(join(project, "suite.mjs"), SUITE_PROGRAM);
    const out = JSON.parse(ok(process.execPath, ["suite.mjs"]));
    expect(out.suites).toEqual(["MyStore store"]);
    expect(out.tests).toBeGreaterThan(10);
    // (This project has vitest, from the starter: what shows the store needs none is the package.)
    const store = join(project, "node_modules/@autograms/store");
    const pkg = JSON.parse(readFileSync(join(store, "package.json"), "utf8"));
    expect(Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies })).not.toContain("vitest");
    const built = readdirSync(join(store, "dist/testing")).filter((f) => f.endsWith(".js"));
    expect(built).toContain("store-suite.js");
    for (const file of built)
      expect(readFileSync(join(store, "dist/testing", file), "utf8")).not.toMatch(/from ["']vitest["']/);
  });

  it("autograms serve answers the AI SDK chat protocol and stops on SIGTERM", async () => {
    // The installed bin itself (what npx runs), so the signal reaches the server, not npm's wrapper.
    const bin = join(project, "node_modules", ".bin", process.platform === "win32" ? "autograms.cmd" : "autograms");
    const child = spawn(bin, ["serve", "counter.ts", "--offline", "--port", "0", "--store", "sqlite:served.db"], {
      cwd: project,
      env: userEnv(),
    });
    // However the test ends (a failed assertion, a timeout), the server does not outlive it.
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });
    let out = "";
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      void exited.then((code) => reject(new Error(`autograms serve exited ${code} before listening:\n${out}\n${err}`)));
    });
    try {
      const res = await fetch(`${url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          id: "t1",
          trigger: "submit-message",
          messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: "again" }] }],
        }),
      });
      expect(res.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
      const deltas = (await res.text())
        .split("\n")
        .filter((l) => l.startsWith("data: {"))
        .map((l) => JSON.parse(l.slice(6)) as { type: string; delta?: string })
        .filter((c) => c.type === "text-delta")
        .map((c) => c.delta)
        .join("");
      expect(deltas).toBe("Say 'again' to count.That makes 1. Again?");
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
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

const SERVER_PROGRAM = `import { readFileSync } from "node:fs";
import { compile } from "@autograms/compiler";
import { Agent, ScriptedModel } from "@autograms/runtime";
import { openStore } from "@autograms/store";
import { listen } from "@autograms/server";

const { graph } = compile(readFileSync("counter.ts", "utf8"), { fileName: "counter.ts" });
const store = await openStore("sqlite:program.db");
const server = await listen({ agent: new Agent(graph, { model: new ScriptedModel({}) }), store, port: 0 });
const res = await fetch(server.url + "/api/threads/t1/runs", {
  method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "again", messageId: "m1" }),
});
await res.text();
const thread = await (await fetch(server.url + "/api/threads/t1")).json();
await server.close();
await store.close();
console.log(JSON.stringify({ listening: server.url.startsWith("http://127.0.0.1:"), replies: thread.turns.map((t) => t.reply), turns: thread.turns.length }));
`;

// A third backend's test file, in miniature: the suite registers its tests with the runner it is
// given (here one that only records them), and nothing of the store needs vitest.
const SUITE_PROGRAM = `import { storeSuite } from "@autograms/store/testing";
import { openStore } from "@autograms/store";

const suites = [];
let tests = 0;
storeSuite("MyStore", { fresh: async () => ({ url: "sqlite::memory:", open: (o) => openStore("sqlite::memory:", o), query: async () => [], close: async () => {} }) }, {
  describe: (name, body) => { suites.push(name); body(); },
  it: () => { tests++; },
  expect: Object.assign(() => ({}), { stringContaining: (s) => s, stringMatching: (s) => s }),
});
console.log(JSON.stringify({ suites, tests }));
`;

const SERVER_TYPES = `import { createApp, type AppOptions, type RunEvent } from "@autograms/server";
import { openStore, type Store, type ThreadInfo } from "@autograms/store";
import { storeSuite, type Backend, type TestApi } from "@autograms/store/testing";
import { Agent, OfflineModel, type Graph } from "@autograms/runtime";

export function suite(backend: Backend, runner: TestApi): void {
  storeSuite("MyStore", backend, runner);
}

export async function app(graph: Graph): Promise<ThreadInfo[]> {
  const store: Store = await openStore("sqlite:types.db");
  const options: AppOptions = { agent: new Agent(graph, { model: new OfflineModel() }), store };
  const served = createApp(options);
  const event: RunEvent = { type: "text-reset", node: "ask" };
  void event;
  void served;
  return store.listThreads();
}
`;
