// `autograms compile` as a process of its own, where a process is the case: V8's code cache of the
// TypeScript parser, written by one cold start and read by the next, and --watch, which runs until
// it is stopped. Each starts the command and TypeScript afresh (seconds of CPU), so they are in the
// slow tier; test/compiler/cli.test.ts runs the rest of the command in the test's own process.
import { beforeAll, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import Module from "node:module";
import { join } from "node:path";
import { fixtureSource } from "./support/compile.js";
import { bin, cliTestFolder } from "../cli/support/run-cli.js";

/** The built command in a process of its own: what it loads at its start is the case. */
function spawned(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8", env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const folder = cliTestFolder("autograms-compile-");

describe("autograms compile", () => {
  let dir: string;
  beforeAll(() => {
    dir = folder();
    writeFileSync(join(dir, "tutor.ts"), fixtureSource("design-example"));
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
