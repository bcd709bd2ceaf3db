import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compile, graphToJson } from "@autograms/compiler";
import { fixtureSource } from "./support/compile.js";
import { autogramsInProcess } from "../cli/support/run-cli.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The built command, in the test's process (its starts as a process: cli-process.slow.ts). */
const autograms = (args: string[], cwd: string) => autogramsInProcess(args, { cwd });

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
});
