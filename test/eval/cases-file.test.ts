// Reading a cases file: JSON Lines and YAML, settings, and every problem reported at its line (a
// shape the schema refuses, a node or a variable the agent does not have, a scorer that is not one).
import { describe, expect, it } from "vitest";
import {
  AgentNames,
  EvalFileError,
  casesSchema,
  checkCases,
  defineScorer,
  loadScorers,
  readCases,
  runCases,
} from "@autograms/runtime/eval";
import { sampleAgent, sampleGraph, verdicts } from "./support.js";

const names = new AgentNames(sampleGraph("recruiter"));

/** The located error reading and checking `text` throws, as `line: message`. */
function problem(file: string, text: string): string {
  try {
    checkCases(readCases(file, text), names);
  } catch (err) {
    if (!(err instanceof EvalFileError)) throw err;
    expect(err.message).toBe(`${file}:${err.line}: ${err.detail}`);
    return `${err.line}: ${err.detail}`;
  }
  throw new Error("no problem was found");
}

describe("reading cases", () => {
  it("reads JSON Lines: a case a line, a settings line, blank lines skipped", () => {
    const cases = readCases(
      "cases.jsonl",
      [
        '{"settings": {"scorers": ["./s.ts#a"]}}',
        "",
        '{"name": "one", "turns": [{}, {"user": "hi", "expect": {"node": "greet"}}]}',
        '{"name": "two", "vars": {"role": "x"}, "scorers": ["./t.ts"], "turns": [{"expect": {"reply": {"contains": "x"}}}]}',
      ].join("\n"),
    );
    expect(cases.cases.map((c) => [c.name, c.line, c.turns.length, c.scorers])).toEqual([
      ["one", 3, 2, [{ module: "./s.ts", name: "a" }]],
      [
        "two",
        4,
        1,
        [
          { module: "./s.ts", name: "a" },
          { module: "./t.ts", name: "default" },
        ],
      ],
    ]);
    expect(cases.cases[0]!.turns[1]).toMatchObject({ user: "hi", expect: { node: "greet" }, line: 3 });
  });

  it("reads YAML, a list or a map of settings and cases, each turn and expectation at its line", () => {
    const cases = readCases(
      "cases.yaml",
      `settings:
  scorers: [./s.ts#a]
cases:
  - name: one
    turns:
      - user: hello
        expect:
          node: greet
          reply: { contains: hi }
`,
    );
    const [c] = cases.cases;
    expect(c!.line).toBe(4);
    expect(c!.turns[0]!.line).toBe(6);
    expect(c!.turns[0]!.lines).toEqual({ node: 8, reply: 9 });
  });

  it("publishes its schema", () => {
    expect(casesSchema.oneOf).toHaveLength(3);
  });
});

describe("problems, each at its line", () => {
  it("an unknown node, by name or source line", () => {
    expect(
      problem("c.yaml", "- name: a\n  turns:\n    - {}\n    - user: hi\n      expect:\n        node: gret\n"),
    ).toBe("6: the agent has no node 'gret' (name a node, or FILE:LINE for the node at that line)");
    expect(problem("c.jsonl", '\n{"name": "a", "turns": [{"expect": {"path": ["greet", "agent.ts:3"]}}]}')).toBe(
      "2: no node of the agent is written at agent.ts:3",
    );
    expect(problem("c.jsonl", '{"name": "a", "turns": [{"expect": {"node": "tools.ts:20"}}]}')).toBe(
      "1: tools.ts:20 names another file than the agent's (samples/recruiter/agent.ts)",
    );
  });

  it("a variable the agent does not have; a starting value for one that is not a global", () => {
    expect(problem("c.yaml", "- name: a\n  turns:\n    - expect:\n        vars: { outcom: x }\n")).toBe(
      "4: the agent has no variable 'outcom' (it has 'company', 'role', 'outcome', 'note', 'background', 'salary_range')",
    );
    expect(problem("c.yaml", "- name: a\n  vars: { background: x }\n  turns: [{}]\n")).toBe(
      "1: 'background' is not one of the agent's globals, which a case can set (they are 'company', 'role', 'outcome', 'note')",
    );
  });

  it("shapes the schema refuses, bad regexes and schemas, duplicate names, YAML and JSON errors", () => {
    expect(problem("c.yaml", "- name: a\n  turns:\n    - expect:\n        nodes: greet\n")).toBe(
      "4: not a case: turns.0.expect must NOT have additional properties 'nodes'",
    );
    expect(problem("c.yaml", "- name: a\n")).toBe("1: not a case: must have required property 'turns'");
    expect(problem("c.yaml", "- name: a\n  turns:\n    - expect:\n        reply: { regex: '(' }\n")).toMatch(
      /^4: reply.regex is not a regular expression: /,
    );
    expect(
      problem("c.yaml", "- name: a\n  turns:\n    - expect:\n        varsSchema: { note: { type: text } }\n"),
    ).toMatch(/^4: varsSchema.note is not a JSON Schema: /);
    expect(problem("c.yaml", "- name: a\n  turns: [{}]\n- name: a\n  turns: [{}]\n")).toBe(
      "3: a case named 'a' is already at line 1",
    );
    expect(problem("c.yaml", "- name: a\n  turns: [{}]\n  name: b\n")).toBe("3: not YAML: Map keys must be unique");
    expect(problem("c.jsonl", '{"name": "a", "turns": [{}]}\n{"name": "b", turns: []}')).toMatch(
      /^2: not a JSON value: /,
    );
    expect(problem("c.yaml", "name: a\n")).toBe(
      "1: a YAML cases file is a list of cases, or a map with 'cases' (and 'settings')",
    );
  });

  it("a scorer module that does not load, an export that is not a scorer", async () => {
    const cases = readCases("dir/c.yaml", "- name: a\n  turns:\n    - expect:\n        scorers: [./s.ts#nice]\n");
    const seen: string[] = [];
    await expect(
      loadScorers(cases, async (path) => {
        seen.push(path);
        return { nice: () => 1, kind: defineScorer({ name: "kind", score: () => true }) };
      }),
    ).rejects.toThrow("dir/c.yaml:4: './s.ts#nice' is not a scorer (defineScorer); the module's scorers: 'kind'");
    expect(seen[0]).toMatch(/\/dir\/s\.ts$/);
    await expect(
      loadScorers(cases, async () => {
        throw new Error("Cannot find module");
      }),
    ).rejects.toThrow("dir/c.yaml:4: cannot load the scorers' module './s.ts': Cannot find module");
  });
});

describe("scorers", () => {
  it("score turns and conversations; one that throws fails its case with its name and message, the others go on", async () => {
    const cases = readCases(
      "c.yaml",
      `settings:
  scorers: [./s.ts#short, ./s.ts#turns]
cases:
  - name: good
    turns:
      - expect: { scorers: [./s.ts#fraction] }
      - user: No, I do not want to do the interview.
  - name: bad
    turns:
      - user: ""
        expect: { scorers: [./s.ts#throws] }
`,
    );
    const scorers = await loadScorers(cases, async () => ({
      short: defineScorer({
        name: "short",
        score: ({ turn }) => (turn.reply ?? "").length < 80,
        reason: ({ turn }) => `${(turn.reply ?? "").length} characters`,
      }),
      fraction: defineScorer({ name: "fraction", score: () => 0.25, threshold: 0.3 }),
      throws: defineScorer({
        name: "throws",
        score: () => {
          throw new Error("no rubric");
        },
      }),
      turns: defineScorer({ name: "two turns", on: "conversation", score: ({ turns }) => turns.length === 2 }),
    }));
    const report = await runCases(sampleAgent("recruiter"), cases, { scorers });
    expect(verdicts(report)).toEqual([
      "1 scorer short: FAIL",
      "1 scorer fraction: FAIL",
      "2 scorer short: pass",
      "- scorer two turns: pass",
      "1 scorer short: FAIL",
      "1 scorer throws: FAIL",
      "- scorer two turns: FAIL",
    ]);
    const [good, bad] = report.runs;
    expect(good!.outcomes[0]!.reason).toBe("99 characters");
    expect(good!.outcomes[1]!.reason).toBe("score 0.25 (passes at 0.3)");
    expect(bad!.outcomes[1]!.reason).toBe("scorer 'throws' threw: no rubric");
  });
});
