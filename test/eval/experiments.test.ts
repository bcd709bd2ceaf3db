// Stored experiments: each `autograms eval` run kept in the store, `eval list` and `eval show`
// (the table as at run time, and what changed between two experiments, at each build's lines).
import { describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { autogramsInProcess, cliTestFolder } from "../cli/support/run-cli.js";
import { SAMPLES_DIR } from "../samples/samples.js";

const folder = cliTestFolder("autograms-eval-experiments-");
const SAMPLE = join(SAMPLES_DIR, "recruiter", "agent.ts");
const CASES = join(SAMPLES_DIR, "recruiter", "cases.yaml");
const SOURCE_HASH = (
  JSON.parse(readFileSync(join(SAMPLES_DIR, "recruiter", "agent.graph.json"), "utf8")) as {
    source: { sha256: string };
  }
).source.sha256;

/** The id a run's note on stderr gives its experiment. */
function storedId(stderr: string, store: string): string {
  const m =
    /^experiment ([0-9a-f]{8}) stored in (.+?)(?: \(and the other build's as [0-9a-f]{8}\))?: autograms eval show \1\n$/.exec(
      stderr,
    );
  expect(m, stderr).not.toBeNull();
  expect(m![2]).toBe(store.slice("sqlite:".length));
  return m![1]!;
}

/** The recruiter with `below_range` sent on to `negotiate`, and a line added at the top. */
function editedAgent(): string {
  const edited = join(folder(), "edited", "agent.ts");
  const source = readFileSync(SAMPLE, "utf8").replace(
    '{ name: "below_range", transitions: ["write_note"] }',
    '{ name: "below_range", transitions: ["negotiate"] }',
  );
  mkdirSync(join(folder(), "edited"), { recursive: true });
  writeFileSync(edited, `// edited\n${source}`);
  return edited;
}

describe("stored experiments", () => {
  it("keeps each run; eval list lists it and eval show prints its table as the run did", async () => {
    const store = `sqlite:${join(folder(), "one.db")}`;
    const run = await autogramsInProcess(["eval", SAMPLE, CASES, "--offline", "--store", store]);
    expect(run.code).toBe(0);
    const id = storedId(run.stderr, store);

    const list = await autogramsInProcess(["eval", "list", "--store", store]);
    expect(list.code).toBe(0);
    const [header, row, ...rest] = list.stdout.split("\n");
    expect(header).toMatch(
      /^id\s+when\s+agent\s+build\s+source\s+model\s+cases file\s+cases\s+passed\s+failed\s+time$/,
    );
    expect(row).toMatch(
      new RegExp(
        `^${id}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\s+Recruiter\\s+\\S+agent\\.ts\\s+${SOURCE_HASH.slice(0, 8)}\\s+offline\\s+\\S*cases\\.yaml\\s+4\\s+4\\s+0\\s+[\\d.]+ s$`,
      ),
    );
    expect(rest).toEqual([""]);

    const show = await autogramsInProcess(["eval", "show", id, "--store", store]);
    expect(show.code).toBe(0);
    expect(show.stderr).toBe("");
    const heading = `experiment ${id}: Recruiter, ${SAMPLE} (source ${SOURCE_HASH.slice(0, 8)}) on offline, ${CASES}, `;
    expect(show.stdout.startsWith(heading)).toBe(true);
    expect(show.stdout.slice(show.stdout.indexOf("\n\n") + 2)).toBe(run.stdout);

    const json = await autogramsInProcess(["eval", "list", "--store", store, "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject([{ id, agent: "Recruiter", cases: 4, passed: 4, failed: 0 }]);
  });

  it("keeps both builds of a --compare run; show prints what changed, and --compare compares any two", async () => {
    const store = `sqlite:${join(folder(), "two.db")}`;
    const edited = editedAgent();
    const run = await autogramsInProcess(["eval", edited, CASES, "--offline", "--store", store, "--compare", SAMPLE]);
    expect(run.code).toBe(1);
    const id = storedId(run.stderr, store);
    const other = /the other build's as ([0-9a-f]{8})/.exec(run.stderr)![1]!;

    const changed = [
      "  a candidate below the range (line 9): passes there, fails here",
      "    turn 4 parts after below_range (there agent.ts:51, here agent.ts:52): there write_note (agent.ts:62), here negotiate (agent.ts:54)",
      "4 cases: 1 changed result, 1 turn went another way",
      "",
    ];
    const show = await autogramsInProcess(["eval", "show", id, "--store", store]);
    expect(show.code).toBe(1);
    expect(show.stdout).toContain(`, compared with experiment ${other}\n`);
    expect(show.stdout.slice(show.stdout.indexOf("\ncompared with"))).toBe(
      ["", `compared with experiment ${other} (${SAMPLE} on offline):`, ...changed].join("\n"),
    );
    // The run printed the same, naming the other build as it was given.
    expect(run.stdout.slice(run.stdout.indexOf("\ncompared with"))).toBe(
      ["", `compared with ${SAMPLE}:`, ...changed].join("\n"),
    );

    // The other way round: the edited build is now "there", each node at its own build's line.
    const back = await autogramsInProcess(["eval", "show", other, "--compare", id, "--store", store]);
    expect(back.code).toBe(0);
    expect(back.stdout.slice(back.stdout.indexOf("\ncompared with"))).toBe(
      [
        "",
        `compared with experiment ${id} (${edited} on offline):`,
        "  a candidate below the range (line 9): fails there, passes here",
        "    turn 4 parts after below_range (there agent.ts:52, here agent.ts:51): there negotiate (agent.ts:54), here write_note (agent.ts:62)",
        "4 cases: 1 changed result, 1 turn went another way",
        "",
      ].join("\n"),
    );

    const json = JSON.parse((await autogramsInProcess(["eval", "show", id, "--store", store, "--json"])).stdout);
    expect(json).toMatchObject({
      id,
      comparedWith: other,
      comparison: { with: other, changes: [{ case: "a candidate below the range" }] },
    });
    expect(json.report.runs).toHaveLength(4);
  });

  it("--no-store keeps nothing; an unknown id or a bad store URL is a clear error", async () => {
    const path = join(folder(), "none.db");
    const run = await autogramsInProcess(["eval", SAMPLE, CASES, "--offline", "--no-store"], {
      env: { AUTOGRAMS_STORE: `sqlite:${path}` },
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(existsSync(path)).toBe(false);

    const store = `sqlite:${join(folder(), "empty.db")}`;
    const list = await autogramsInProcess(["eval", "list", "--store", store]);
    expect(list.stdout).toBe("");
    expect(list.stderr).toBe(`(no experiments in ${store.slice("sqlite:".length)})\n`);
    const show = await autogramsInProcess(["eval", "show", "0badc0de", "--store", store]);
    expect(show.code).toBe(1);
    expect(show.stderr).toBe(
      `autograms eval show: no experiment '0badc0de' in ${store.slice("sqlite:".length)} (autograms eval list shows them)\n`,
    );
    const bad = await autogramsInProcess(["eval", SAMPLE, CASES, "--offline", "--store", "mysql://x"]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toMatch(/^autograms eval: --store: /);
  });
});
