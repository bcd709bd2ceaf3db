// Each expectation of a cases file scored on what the turn really did: every kind is given once so
// that it holds and once so that it does not, and each verdict and reason is checked.
import { describe, expect, it } from "vitest";
import type { ChatModel, CompletionRequest } from "@autograms/runtime";
import { calculator, convert, lookup } from "../../samples/react-tools/tools.js";
import { evaluate, sampleAgent, verdicts } from "./support.js";

const recruiter = () => sampleAgent("recruiter");

describe("turn expectations on the recruiter (offline model)", () => {
  it("node, by name and by source line: the node that replied", async () => {
    const report = await evaluate(
      recruiter(),
      `
- name: nodes
  turns:
    - expect: { node: greet }
    - user: Yes, I am ready.
      expect: { node: greet }
    - user: Five years of Go.
      expect: { node: "agent.ts:39" }
    - user: Below the range.
      expect: { node: "samples/recruiter/agent.ts:66" }
`,
    );
    expect(verdicts(report)).toEqual([
      "1 node greet: pass",
      "2 node greet: FAIL",
      "3 node agent.ts:39: pass",
      "4 node samples/recruiter/agent.ts:66: FAIL",
    ]);
    const outcomes = report.runs[0]!.outcomes;
    expect(outcomes[1]!.reason).toBe("replied at 'ask_background'");
    expect(outcomes[3]!.reason).toBe("replied at 'wrap_up'");
    expect(report.runs[0]!.turns.map((t) => t.replyAt)).toEqual([
      "agent.ts:19",
      "agent.ts:29",
      "agent.ts:39",
      "agent.ts:64",
    ]);
    expect(report.pass).toBe(false);
  });

  it("path: a subsequence of the nodes passed through, in order", async () => {
    const report = await evaluate(
      recruiter(),
      `
- name: paths
  turns:
    - expect: { path: [main, greet] }
    - user: Yes, I am ready.
      expect: { path: [greet, ask_background] }
    - user: Five years of Go.
      expect: { path: [summarizeBackground, ask_background] }
    - user: Below the range.
      expect: { path: [ask_salary, above_range, wrap_up] }
`,
    );
    expect(verdicts(report)).toEqual([
      "1 path main > greet: pass",
      "2 path greet > ask_background: pass",
      "3 path summarizeBackground > ask_background: FAIL",
      "4 path ask_salary > above_range > wrap_up: FAIL",
    ]);
    expect(report.runs[0]!.outcomes[3]!.reason).toMatch(
      /^'above_range' does not follow in the turn's path \(ask_salary > below_range > write_note/,
    );
    expect(report.runs[0]!.turns[2]!.path).toEqual([
      "ask_background",
      "main.call_summarizeBackground_75ac",
      "summarizeBackground",
      "summarizeBackground.thought_0693",
      "main.call_summarizeBackground_75ac",
      "ask_salary",
    ]);
  });

  it("reply: contains, regex, equals, not", async () => {
    const report = await evaluate(
      recruiter(),
      `
- name: replies
  turns:
    - expect:
        reply: { contains: [ready, interview], regex: "^\\\\(offline\\\\)", not: salary }
    - user: No, I do not want to do the interview.
      expect:
        reply:
          equals: "No problem at all. Thanks for your time, and good luck!"
          contains: Goodbye
          regex: "^No problem$"
          not: [luck, fortune]
`,
    );
    expect(verdicts(report)).toEqual([
      '1 reply contains "ready": pass',
      '1 reply contains "interview": pass',
      "1 reply matches /^\\(offline\\)/: pass",
      '1 reply lacks "salary": pass',
      '2 reply contains "Goodbye": FAIL',
      "2 reply matches /^No problem$/: FAIL",
      '2 reply equals "No problem at all. Thanks for your time, and good luck!": pass',
      '2 reply lacks "luck": FAIL',
      '2 reply lacks "fortune": pass',
    ]);
    expect(report.runs[0]!.outcomes[7]!.reason).toBe('the reply contains "luck"');
  });

  it("vars: deep equality and JSON Schema, after the turn; starting values from the case", async () => {
    const report = await evaluate(
      recruiter(),
      `
- name: variables
  vars: { role: data engineer }
  turns:
    - expect: { vars: { role: data engineer, outcome: undecided } }
    - user: Yes, ready.
      expect: { reply: { contains: data engineer } }
    - user: Five years.
      expect:
        vars: { outcome: expects a salary below the range }
        varsSchema: { background: { type: string, minLength: 1 }, note: { type: string, minLength: 1 } }
`,
    );
    expect(verdicts(report)).toEqual([
      "1 vars.role: pass",
      "1 vars.outcome: pass",
      '2 reply contains "data engineer": pass',
      "3 vars.outcome: FAIL",
      "3 varsSchema.background: pass",
      "3 varsSchema.note: FAIL",
    ]);
    const outcomes = report.runs[0]!.outcomes;
    expect(outcomes[3]!.reason).toBe('outcome is "undecided", not "expects a salary below the range"');
    expect(outcomes[5]!.reason).toBe("note must NOT have fewer than 1 characters");
  });

  it("tool: a call with a subset of its arguments", async () => {
    const agent = sampleAgent("native-tools", { tools: { calculator, convert, lookup } });
    const report = await evaluate(
      agent,
      `
- name: tools
  turns:
    - expect: { node: greet }
    - user: lookup planet=Mars fact=moons
      expect: { tool: { name: lookup, args: { planet: Mars } } }
    - user: lookup planet=Venus fact=moons
      expect: { tool: { name: lookup, args: { planet: Mars } } }
    - user: lookup planet=Venus fact=moons
      expect: { tool: { name: calculator } }
`,
    );
    expect(verdicts(report)).toEqual([
      "1 node greet: pass",
      "2 tool lookup: pass",
      "3 tool lookup: FAIL",
      "4 tool calculator: FAIL",
    ]);
    const outcomes = report.runs[0]!.outcomes;
    expect(outcomes[1]!.reason).toBe('called lookup({"planet":"Mars","fact":"moons"})');
    expect(outcomes[2]!.reason).toBe(`'lookup' was called, but not with these arguments ({"planet":"Mars"})`);
    expect(outcomes[3]!.reason).toBe("no call of 'calculator' (called: lookup)");
  });

  it("maxTokens counts what the model reports; maxMs the turn's time", async () => {
    // 100 tokens a generation, reported as a real model reports them.
    const model: ChatModel = {
      async complete(req: CompletionRequest) {
        req.onUsage?.({ inputTokens: 60, outputTokens: 40 });
        return "Hello there, are you ready?";
      },
      async choose(req) {
        req.onUsage?.({ inputTokens: 30, outputTokens: 1 });
        return 0;
      },
    };
    const report = await evaluate(
      sampleAgent("recruiter", { model }),
      `
- name: budgets
  turns:
    - expect: { maxTokens: 100, maxMs: 60000 }
    - user: Ready.
      expect: { maxTokens: 130, maxMs: 0 }
`,
    );
    expect(verdicts(report)).toEqual([
      "1 maxTokens 100: pass",
      "1 maxMs 60000: pass",
      "2 maxTokens 130: FAIL",
      "2 maxMs 0: FAIL",
    ]);
    const outcomes = report.runs[0]!.outcomes;
    expect(outcomes[0]!.reason).toBe("100 tokens");
    expect(outcomes[2]!.reason).toBe("131 tokens, over 130");
    expect(report.runs[0]!.turns[1]!.tokens).toEqual({ total: 131, estimated: false });
  });

  it("maxTokens estimates, and says so, when the model reports no usage", async () => {
    const report = await evaluate(recruiter(), `- name: estimate\n  turns:\n    - expect: { maxTokens: 1 }\n`);
    const [outcome] = report.runs[0]!.outcomes;
    expect(outcome!.pass).toBe(false);
    expect(outcome!.reason).toMatch(/^\d+ tokens \(estimated\), over 1$/);
  });

  it("a turn that fails fails its case at that turn; the other cases run", async () => {
    const report = await evaluate(
      recruiter(),
      `
- name: talks past the end
  turns:
    - {}
    - user: No, I do not want to do the interview.
    - user: Hello?
      expect: { node: greet }
- name: fine
  turns:
    - expect: { node: greet }
`,
    );
    expect(verdicts(report)).toEqual(["3 turn runs: FAIL", "1 node greet: pass"]);
    expect(report.runs[0]!.outcomes[0]!.reason).toMatch(/^the turn failed: this conversation has ended/);
    expect(report.cases.map((c) => [c.case, c.passed])).toEqual([
      ["talks past the end", 0],
      ["fine", 1],
    ]);
  });
});

describe("simulated conversations", () => {
  it("reached, never reached, ended", async () => {
    const report = await evaluate(
      recruiter(),
      `
- name: simulated
  simulate: { maxTurns: 20, seed: 7 }
  expect: { reached: [greet], notReached: [greet, answer_question], ended: true }
- name: cut short
  simulate: { maxTurns: 1, seed: 7 }
  expect: { reached: [wrap_up], ended: true }
`,
    );
    expect(verdicts(report)).toEqual([
      "- reached greet: pass",
      "- never reached greet: FAIL",
      "- never reached answer_question: pass",
      "- ended: pass",
      "- reached wrap_up: FAIL",
      "- ended: FAIL",
    ]);
    expect(report.runs[1]!.outcomes[1]!.reason).toBe("the conversation did not end (max_turns)");
  });
});
