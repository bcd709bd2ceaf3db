/**
 * Stored experiments as `autograms eval list` and `show` print them: a row per experiment, the
 * heading of one, and what changed between two, each node at its line in the build that ran it
 * (the graph kept with the experiment).
 */
import { AgentNames, compareReports, type CaseChange } from "@autograms/runtime/eval";
import type { Experiment, ExperimentInfo } from "@autograms/store";
import { clip, clipStart, table } from "./text-table.js";

/** When it ran, to the minute, in UTC (the same on every machine reading the store). */
const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** The source hash as `git` shows a commit: its first eight digits. */
const hash = (h: string | null) => (h === null ? "-" : h.slice(0, 8));

export function experimentsTable(experiments: readonly ExperimentInfo[]): string {
  const rows = experiments.map((e) => [
    e.id,
    when(e.createdAt),
    clip(e.agent, 24),
    clipStart(e.build, 48),
    hash(e.sourceHash),
    clip(e.model, 24),
    clipStart(e.casesFile, 32),
    String(e.cases),
    String(e.passed),
    String(e.failed),
    `${(e.ms / 1000).toFixed(2)} s`,
  ]);
  return table(
    ["id", "when", "agent", "build", "source", "model", "cases file", "cases", "passed", "failed", "time"],
    rows,
  );
}

/** The lines above an experiment's table: what ran, on what, when, and beside what. */
export function experimentHeading(e: ExperimentInfo): string {
  const beside = e.comparedWith === null ? "" : `, compared with experiment ${e.comparedWith}`;
  return `experiment ${e.id}: ${e.agent}, ${e.build} (source ${hash(e.sourceHash)}) on ${e.model}, ${e.casesFile}, ${when(e.createdAt)}${beside}\n\n`;
}

/** What changed from `before` to `after`, each turn's nodes at their lines in the build that ran them. */
export function experimentChanges(before: Experiment, after: Experiment): CaseChange[] {
  return compareReports(before.report, after.report, {
    before: new AgentNames(before.graph),
    after: new AgentNames(after.graph),
  });
}

/** How `show --compare` names the other experiment in "compared with ...". */
export const experimentLabel = (e: ExperimentInfo) => `experiment ${e.id} (${e.build} on ${e.model})`;
