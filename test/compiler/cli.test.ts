import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import Module from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compile, graphToJson } from "@autograms/compiler";
import { fixtureSource } from "./support/compile.js";
import { autogramsInProcess } from "../cli/support/run-cli.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = join(root, "cli/bin/autograms.js");

/** The built command, in the test's process. */
const autograms = (args: string[], cwd: string) => autogramsInProcess(args, { cwd });

/** The built command in a process of its own: what it loads at its start is the case. */
function spawned(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8", env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("autograms compile", () => {
  let dir: string;
  beforeAll(() => {
    const buildError = inject("cliBuildError");
    if (buildError) throw new Error(buildError);
    dir = mkdtempSync(join(tmpdir(), "autograms-compile-"));
    writeFileSync(join(dir, "tutor.ts"), fixtureSource("design-example"));
    writeFileSync(join(dir, "broken.ts"), fixtureSource("error-unknown-method"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes <name>.graph.json and its map beside the agent, exactly what compile() gives", async () => {
    const r = await autograms(["compile", "tutor.ts"], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^tutor\.graph\.json \(\d+ nodes\)\n$/);
    const expected = compile(fixtureSource("design-example"), { fileName: "tutor.ts" });
    expect(readFileSync(join(dir, "tutor.graph.json"), "utf8")).toBe(graphToJson(expected.graph!));
    const map = JSON.parse(readFileSync(join(dir, "tutor.graph.json.map"), "utf8"));
    expect(map).toMatchObject({ version: 3, file: "tutor.graph.json", sources: ["tutor.ts"] });
    expect(map.mappings).toBe(expected.sourceMap!.mappings);
  });

  it("writes where -o says, with the map naming the agent relative to itself", async () => {
    const r = await autograms(["compile", join(dir, "tutor.ts"), "-o", join(dir, "out.json")], root);
    expect(r.code).toBe(0);
    const map = JSON.parse(readFileSync(join(dir, "out.json.map"), "utf8"));
    expect(map).toMatchObject({ file: "out.json", sources: ["tutor.ts"] });
    expect(JSON.parse(readFileSync(join(dir, "out.json"), "utf8")).agent).toBe("FractionTutor");
  });

  it("prints the graph with -o -", async () => {
    const r = await autograms(["compile", "tutor.ts", "-o", "-"], dir);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).format).toBe("autograms-graph");
  });

  it("prints diagnostics tsc-style on stderr and exits 1, writing nothing", async () => {
    const r = await autograms(["compile", "broken.ts"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("broken.ts:6:10 - error unknown_method: the agent class has no method 'greet'\n  5 |");
    expect(r.stderr).toContain('> 6 |     this.greet("Ada");');
    expect(r.stderr).toMatch(/1 error in broken\.ts\n$/);
    expect(existsSync(join(dir, "broken.graph.json"))).toBe(false);
  });

  it("says so when the file does not exist (exit 1), and on a usage error exits 2", async () => {
    const missing = await autograms(["compile", "nowhere.ts"], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("autograms compile: cannot read 'nowhere.ts': no such file\n");
    expect((await autograms(["compile"], dir)).code).toBe(2);
  });

  it("keeps V8's code cache of the TypeScript parser in the user's cache directory, and reuses it", () => {
    if (typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === "function") return; // Node 22 caches by itself
    const env = { ...process.env, XDG_CACHE_HOME: join(dir, "cache") };
    expect(spawned(["compile", "tutor.ts"], dir, env).code).toBe(0);
    const cacheDir = join(dir, "cache", "autograms");
    const [file] = readdirSync(cacheDir);
    expect(file).toMatch(/^typescript\.js-.*\.v8cache$/);
    expect(statSync(cacheDir).mode & 0o077).toBe(0);
    const written = statSync(join(cacheDir, file!)).mtimeMs;
    expect(spawned(["compile", "tutor.ts"], dir, env).code).toBe(0);
    // Accepted by V8, so not written again.
    expect(statSync(join(cacheDir, file!)).mtimeMs).toBe(written);
  });

  it("compiles again on every change with --watch", async () => {
    writeFileSync(join(dir, "watched.ts"), fixtureSource("design-example"));
    const child = spawn(process.execPath, [bin, "compile", "watched.ts", "--watch"], { cwd: dir });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const waitFor = async (pattern: RegExp) => {
      for (let i = 0; i < 200 && !pattern.test(stderr); i++) await new Promise((r) => setTimeout(r, 50));
      expect(stderr).toMatch(pattern);
    };
    try {
      await waitFor(/watching watched\.ts/);
      writeFileSync(join(dir, "watched.ts"), fixtureSource("error-unknown-method"));
      await waitFor(/failed in \d+ ms; watching/);
      expect(stderr).toContain("watched.ts:6:10 - error unknown_method");
      writeFileSync(join(dir, "watched.ts"), fixtureSource("loops"));
      await waitFor(/compiled in \d+ ms; watching/);
      expect(JSON.parse(readFileSync(join(dir, "watched.graph.json"), "utf8")).agent).toBe("Loops");
    } finally {
      child.kill();
    }
  });
});
