/** A cases file evaluated on an Agent, from its path: read, checked against the agent, its scorers loaded, run. */
import { readFile } from "node:fs/promises";
import type { Agent } from "../agent/agent.js";
import { AgentNames } from "./agent-names.js";
import type { CasesFile } from "./cases.js";
import { checkCases } from "./check-cases.js";
import { loadScorers, type ModuleImporter } from "./load-scorers.js";
import { readCases } from "./read-cases.js";
import { runCases, type EvalReport, type RunCasesOptions } from "./run-cases.js";

/** Reads and checks a cases file for this agent; throws an EvalFileError at the line of the first problem. */
export async function openCases(agent: Agent, file: string): Promise<CasesFile> {
  const cases = readCases(file, await readFile(file, "utf8"));
  checkCases(cases, new AgentNames(agent.graph));
  return cases;
}

export async function evaluateFile(
  agent: Agent,
  file: string,
  options: Omit<RunCasesOptions, "scorers"> & { importModule?: ModuleImporter } = {},
): Promise<EvalReport> {
  const cases = await openCases(agent, file);
  const scorers = await loadScorers(cases, options.importModule);
  return runCases(agent, cases, { ...options, scorers });
}
