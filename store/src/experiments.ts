/**
 * Experiments: the results of `autograms eval` runs, kept so they can be listed and compared
 * later. An experiment holds the report as it was made and the graph it ran on, so a comparison
 * shows each node at its line in the build that ran it, even after the agent's file has changed.
 */
import type { Graph } from "@autograms/runtime";
import type { EvalReport } from "@autograms/runtime/eval";

/** An experiment to keep: one build's report on one cases file. */
export interface NewExperiment {
  /** Default: a new random id (eight hex digits). */
  id?: string;
  /** How the build was named when it ran: an agent file, `git:REV:FILE`, or the file with `model:NAME`. */
  build: string;
  /** The model it ran on, as the command line names it (`offline`, `openai:gpt-4o-mini`, ...). */
  model: string;
  /** The experiment this one was run beside (`--compare`), the other build's. */
  comparedWith?: string | null;
  report: EvalReport;
  graph: Graph;
}

/** An experiment as listed: what ran, on what, and how it went. */
export interface ExperimentInfo {
  id: string;
  createdAt: number;
  /** The agent's name (the graph's `agent`). */
  agent: string;
  build: string;
  /** The agent's source hash (the graph's `source.sha256`); null for a graph without source. */
  sourceHash: string | null;
  model: string;
  casesFile: string;
  cases: number;
  /** Runs of the cases (cases x --repeat), those that passed, those that failed. */
  runs: number;
  passed: number;
  failed: number;
  /** How long running the cases took (the report's time). */
  ms: number;
  comparedWith: string | null;
}

export interface Experiment extends ExperimentInfo {
  report: EvalReport;
  graph: Graph;
}

/** Experiments kept beside the threads, in the same database. */
export interface ExperimentStore {
  saveExperiment(experiment: NewExperiment): Promise<ExperimentInfo>;
  /** The experiment with its report and graph; null when there is none by that id. */
  experiment(id: string): Promise<Experiment | null>;
  /** The most recent first; `agent`: only that agent's. */
  listExperiments(options?: { limit?: number; agent?: string }): Promise<ExperimentInfo[]>;
}
