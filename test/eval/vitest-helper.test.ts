// The cases of a file as tests of the project's own suite: `evalCases` declares one test per case
// (the recruiter sample's four run here, offline), and a case that fails lists what failed.
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { readCases } from "@autograms/runtime/eval";
import { CaseFailed, checkCase, evalCases } from "@autograms/runtime/eval/vitest";
import { SAMPLES_DIR } from "../samples/samples.js";
import { sampleAgent } from "./support.js";

evalCases(() => sampleAgent("recruiter"), join(SAMPLES_DIR, "recruiter", "cases.yaml"), {
  importModule: (path) => import(path),
});

describe("checkCase", () => {
  it("throws CaseFailed with each failed expectation at its line and turn", async () => {
    const cases = readCases(
      "c.yaml",
      "- name: wrong\n  turns:\n    - expect: { node: greet }\n    - user: Yes, ready.\n      expect:\n        node: stop_early\n        reply: { contains: experience }\n",
    );
    const failure = await checkCase(sampleAgent("recruiter"), cases, cases.cases[0]!, {}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CaseFailed);
    expect((failure as Error).message).toBe("c.yaml:6 turn 2: node stop_early: replied at 'ask_background'");
  });

  it("passes quietly when every expectation holds", async () => {
    const cases = readCases(
      "c.yaml",
      "- name: right\n  turns:\n    - expect: { node: greet, reply: { contains: ready } }\n",
    );
    await expect(checkCase(sampleAgent("recruiter"), cases, cases.cases[0]!, {})).resolves.toBeUndefined();
  });
});
