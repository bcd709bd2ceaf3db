// `autograms eval --compare`: the same cases on another build, and what changed between them.
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { autogramsInProcess, cliTestFolder } from "../cli/support/run-cli.js";
import { SAMPLES_DIR } from "../samples/samples.js";

const folder = cliTestFolder("autograms-eval-compare-");
const SAMPLE = join(SAMPLES_DIR, "recruiter", "agent.ts");
const CASES = join(SAMPLES_DIR, "recruiter", "cases.yaml");

describe("autograms eval --compare", () => {
  it("names the case that changed result and where its changed turn parts, at each build's lines", async () => {
    const source = readFileSync(SAMPLE, "utf8");
    const edited = join(folder(), "agent.ts");
    // A line added at the top, and `below_range` sent on to `negotiate`.
    writeFileSync(
      edited,
      `// edited\n${source.replace('{ name: "below_range", transitions: ["write_note"] }', '{ name: "below_range", transitions: ["negotiate"] }')}`,
    );
    const r = await autogramsInProcess(["eval", edited, CASES, "--offline", "--no-store", "--compare", SAMPLE]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    const report = r.stdout.slice(r.stdout.indexOf("\ncompared with"));
    expect(report).toBe(
      [
        "",
        `compared with ${SAMPLE}:`,
        "  a candidate below the range (line 9): passes there, fails here",
        "    turn 4 parts after below_range (there agent.ts:51, here agent.ts:52): there write_note (agent.ts:62), here negotiate (agent.ts:54)",
        "4 cases: 1 changed result, 1 turn went another way",
        "",
      ].join("\n"),
    );
  });

  it("another model for the same agent: nothing changed when it decides the same way", async () => {
    const r = await autogramsInProcess([
      "eval",
      SAMPLE,
      CASES,
      "--offline",
      "--no-store",
      "--compare",
      "model:offline",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /\ncompared with model:offline:\n4 cases: 0 changed result, 0 turns went another way \(nothing changed\)\n$/,
    );
  });
});
