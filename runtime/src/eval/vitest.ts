/**
 * A cases file in the project's own test suite (`@autograms/runtime/eval/vitest`): one Vitest test
 * per case, so `npm test` runs them. Vitest is an optional peer, loaded only by this module.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";
import type { Agent } from "../agent/agent.js";
import { AgentNames } from "./agent-names.js";
import type { CasesFile, EvalCase } from "./cases.js";
import { checkCases } from "./check-cases.js";
import { loadScorers, type ModuleImporter } from "./load-scorers.js";
import { readCases } from "./read-cases.js";
import { runCases, type RunCasesOptions } from "./run-cases.js";
import type { Scorer } from "./scorer.js";

export interface EvalCasesOptions extends Omit<RunCasesOptions, "scorers" | "onRun"> {
  /**
   * Imports a scorers' module by its path. Scorers written in TypeScript need Vitest to transform
   * them: pass `(path) => import(path)` from the test file.
   */
  importModule?: ModuleImporter;
  /** Milliseconds each case's test may take (Vitest's own default otherwise). */
  timeout?: number;
}

/** A case's failed expectations, one a line: `cases.yaml:12 turn 2: node greet: replied at 'stop_early'`. */
export class CaseFailed extends Error {
  override name = "CaseFailed";
}

/**
 * Declares a `describe` block named after the file with a test per case. `agent` is an Agent, or
 * a function making one (called once, when the first test runs).
 */
export function evalCases(
  agent: Agent | (() => Agent | Promise<Agent>),
  file: string | URL,
  options: EvalCasesOptions = {},
): void {
  const path = file instanceof URL ? fileURLToPath(file) : file;
  const cases = readCases(path, readFileSync(path, "utf8"));
  let ready: Promise<{ agent: Agent; scorers: Map<string, Scorer> }> | undefined;
  const prepare = async () => {
    const made = typeof agent === "function" ? await agent() : agent;
    checkCases(cases, new AgentNames(made.graph));
    return { agent: made, scorers: await loadScorers(cases, options.importModule) };
  };
  describe(path, () => {
    for (const c of cases.cases) {
      it(
        c.name,
        async () => {
          ready ??= prepare();
          const { agent: made, scorers } = await ready;
          await checkCase(made, cases, c, { ...options, scorers });
        },
        options.timeout,
      );
    }
  });
}

/** Runs one case of a file (every repetition) and throws CaseFailed, listing what failed, if anything did. */
export async function checkCase(agent: Agent, cases: CasesFile, c: EvalCase, options: RunCasesOptions): Promise<void> {
  const report = await runCases(agent, { file: cases.file, cases: [c] }, options);
  const failed = report.runs.flatMap((r) =>
    r.outcomes
      .filter((o) => !o.pass)
      .map(
        (o) =>
          `${cases.file}:${o.line}${o.turn === null ? "" : ` turn ${o.turn}`}${report.runs.length > 1 ? ` (run ${r.run})` : ""}: ${o.expectation}: ${o.reason}`,
      ),
  );
  if (failed.length) throw new CaseFailed(failed.join("\n"));
}
