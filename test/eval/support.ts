// Agents and cases for the evaluation tests: the samples compiled from source, cases read from text.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compile } from "@autograms/compiler";
import { Agent, OfflineModel, type AgentOptions, type Graph } from "@autograms/runtime";
import {
  checkCases,
  AgentNames,
  readCases,
  runCases,
  type EvalReport,
  type RunCasesOptions,
} from "@autograms/runtime/eval";
import { SAMPLES_DIR } from "../samples/samples.js";

export function sampleGraph(name: string): Graph {
  const file = `samples/${name}/agent.ts`;
  const { graph, diagnostics } = compile(readFileSync(join(SAMPLES_DIR, name, "agent.ts"), "utf8"), { fileName: file });
  if (!graph) throw new Error(`${file} does not compile: ${JSON.stringify(diagnostics)}`);
  return graph;
}

export function sampleAgent(name: string, options: Partial<AgentOptions> = {}): Agent {
  return new Agent(sampleGraph(name), { model: new OfflineModel(), ...options });
}

/** Reads, checks and runs cases written inline (YAML unless the file name says .jsonl). */
export async function evaluate(
  agent: Agent,
  text: string,
  options: RunCasesOptions = {},
  file = "cases.yaml",
): Promise<EvalReport> {
  const cases = readCases(file, text);
  checkCases(cases, new AgentNames(agent.graph));
  return runCases(agent, cases, options);
}

/** Each outcome as `turn expectation: pass|FAIL`, the form the assertions compare. */
export const verdicts = (report: EvalReport) =>
  report.runs.flatMap((r) => r.outcomes.map((o) => `${o.turn ?? "-"} ${o.expectation}: ${o.pass ? "pass" : "FAIL"}`));
