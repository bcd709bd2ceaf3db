// `judge` expectations: the judge model's PASS or FAIL decides, and its reason is kept.
import { describe, expect, it } from "vitest";
import { ScriptedModel } from "@autograms/runtime";
import { evaluate, sampleAgent, verdicts } from "./support.js";

const cases = `
- name: judged
  turns:
    - expect: { judge: the recruiter asks whether the candidate is ready }
    - user: Yes, ready.
      expect: { judge: the recruiter asks about salary }
    - user: Five years.
      expect: { judge: the reply is polite }
`;

describe("judge", () => {
  it("takes the judge's verdict and reason, and fails a turn whose judge answers neither", async () => {
    const judge = new ScriptedModel({
      complete: ["PASS\nIt asks whether they are ready.", "**FAIL**: it asks about experience, not salary.", "Maybe?"],
    });
    const report = await evaluate(sampleAgent("recruiter"), cases, { judge });
    expect(verdicts(report)).toEqual([
      "1 judge: the recruiter asks whether the candidate is ready: pass",
      "2 judge: the recruiter asks about salary: FAIL",
      "3 judge: the reply is polite: FAIL",
    ]);
    expect(report.runs[0]!.outcomes.map((o) => o.reason)).toEqual([
      "It asks whether they are ready.",
      "it asks about experience, not salary.",
      'the judge did not answer PASS or FAIL: "Maybe?"',
    ]);
    // The judge reads the conversation so far, the judged reply marked, and the criterion.
    const asked = judge.calls[1]!.request as { messages: { content: string }[] };
    expect(asked.messages[1]!.content).toMatch(
      /^Conversation:\nAgent: \(offline\).*\nUser: Yes, ready.\nAgent \(the reply to judge\): .*experience.*\n\nCriterion: the recruiter asks about salary$/,
    );
  });

  it("a judge that fails fails its expectation with the error", async () => {
    const judge = new ScriptedModel({ complete: [] });
    const report = await evaluate(sampleAgent("recruiter"), cases, { judge });
    expect(report.runs[0]!.outcomes[0]!.pass).toBe(false);
    expect(report.runs[0]!.outcomes[0]!.reason).toMatch(/^the judge failed: /);
  });
});
