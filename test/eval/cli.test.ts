// `autograms eval`: the table, the exit code, --json, --junit, --repeat and --concurrency, and a
// problem of the cases file at its line.
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { autogramsInProcess, cliTestFolder } from "../cli/support/run-cli.js";

const folder = cliTestFolder("autograms-eval-");
const AGENT = "samples/recruiter/agent.ts";

describe("autograms eval", () => {
  it("runs the sample's cases offline: all pass, exit 0, each row with the line the turn replied at", async () => {
    const r = await autogramsInProcess(["eval", AGENT, "samples/recruiter/cases.yaml", "--offline", "--no-store"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const rows = r.stdout.split("\n");
    expect(rows[0]).toMatch(/^case\s+turn\s+expectation\s+result\s+replied at\s+reason$/);
    expect(rows.find((l) => l.includes("node agent.ts:64"))).toMatch(
      /\s4\s+node agent\.ts:64\s+pass\s+agent\.ts:64\s+replied at 'wrap_up'$/,
    );
    expect(rows.some((l) => /scorer mentions the company\s+pass/.test(l))).toBe(true);
    expect(r.stdout).toMatch(/\nRecruiter: 4 cases, 4 passed, 0 failed; \d+ expectations, 0 failed; [\d.]+ s\n$/);
  });

  it("exits 1 when an expectation fails, and writes the results as JSON and JUnit XML", async () => {
    const cases = join(folder(), "failing.jsonl");
    writeFileSync(
      cases,
      [
        '{"name": "ready", "turns": [{}, {"user": "Yes, ready.", "expect": {"node": "ask_background"}}]}',
        '{"name": "wrong branch", "turns": [{}, {"user": "Yes, ready.", "expect": {"node": "stop_early", "reply": {"contains": "luck"}}}]}',
      ].join("\n"),
    );
    const json = join(folder(), "out/results.json");
    const junit = join(folder(), "out/junit.xml");
    const r = await autogramsInProcess([
      "eval",
      AGENT,
      cases,
      "--offline",
      "--no-store",
      "--json",
      json,
      "--junit",
      junit,
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/wrong branch\s+2\s+node stop_early\s+FAIL\s+agent\.ts:29\s+replied at 'ask_background'/);
    expect(r.stdout).toMatch(/Recruiter: 2 cases, 1 passed, 1 failed; 3 expectations, 2 failed;/);
    const report = JSON.parse(readFileSync(json, "utf8"));
    expect(report.pass).toBe(false);
    expect(report.runs.map((run: { case: string; pass: boolean }) => [run.case, run.pass])).toEqual([
      ["ready", true],
      ["wrong branch", false],
    ]);
    expect(report.runs[1].turns[1].path).toEqual(["greet", "ask_background"]);
    const xml = readFileSync(junit, "utf8");
    expect(xml).toContain('<testsuite name="' + cases + '" tests="2" failures="1"');
    expect(xml).toMatch(/<testcase classname="Recruiter" name="ready" file="[^"]+" line="1" time="[\d.]+"\/>/);
    expect(xml).toContain(
      `<failure message="node stop_early: replied at 'ask_background'" type="expectation">${cases}:2, turn 2</failure>`,
    );
  });

  it("--repeat runs each case N times, up to --concurrency at once, and reports pass rates", async () => {
    const r = await autogramsInProcess([
      "eval",
      AGENT,
      "samples/recruiter/cases.yaml",
      "--offline",
      "--no-store",
      "--repeat",
      "3",
      "--concurrency",
      "2",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^case\s+runs\s+passed\s+pass rate\n/);
    expect(r.stdout).toMatch(/a candidate below the range\s+3\s+3\s+100%/);
    expect(r.stdout).toMatch(/Recruiter: 12 runs of 4 cases, 12 passed, 0 failed;/);
  });

  it("reports a problem of the cases file at its line, before running anything", async () => {
    const cases = join(folder(), "typo.yaml");
    writeFileSync(cases, "- name: typo\n  turns:\n    - {}\n    - user: hi\n      expect: { node: gret }\n");
    const r = await autogramsInProcess(["eval", AGENT, cases, "--offline", "--no-store"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `autograms eval: ${cases}:5: the agent has no node 'gret' (name a node, or FILE:LINE for the node at that line)\n`,
    );
  });

  it("needs a model, as chat does", async () => {
    const r = await autogramsInProcess(["eval", AGENT, "samples/recruiter/cases.yaml", "--no-store"]);
    expect(r.code).toBe(2);
  });
});
