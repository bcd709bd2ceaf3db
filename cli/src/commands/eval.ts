import type { Command } from "commander";
import { addModelOptions } from "../agent-loading/model-options.js";
import type { EvalFlags } from "../actions/eval.js";
import type { ExperimentFlags } from "../actions/eval-experiments.js";
import { integer } from "./integer.js";

const STORE = [
  "--store <url>",
  "where experiments are kept: sqlite:PATH or postgres://... (default: AUTOGRAMS_STORE, else sqlite:.autograms/threads.db)",
] as const;

export function registerEval(program: Command): void {
  const command = program
    .command("eval")
    .summary("run a file of test conversations on an agent and score what it does")
    .description(
      "run the cases of a cases file (JSONL or YAML, docs/evals.md) on an agent, each on its own memory: a table of every expectation on stdout; exit 1 when any fails. Each run is kept in the store as an experiment: `eval list` lists them, `eval show ID` shows one",
    )
    // Its options come before `list` or `show`: theirs (--store, --json, --compare) are their own.
    .enablePositionalOptions()
    .argument("<agent>", "an agent (.ts, compiled first) or a graph (.json)")
    .argument("[cases]", "the cases file (.jsonl, .yaml or .yml); none with --threads")
    .option("--concurrency <N>", "cases run at once", integer(1), 4)
    .option("--repeat <N>", "run each case N times and report pass rates", integer(1), 1)
    .option("--junit <file>", "also write the results as JUnit XML (for CI)")
    .option("--json <file>", "also write the results as JSON (every turn's path, reply and scores)")
    .option(
      "--compare <other>",
      "also run the cases on another build: an agent or graph file, git:REV (the agent at a git revision) or REV:PATH, or model:NAME for this agent on another model; print what changed",
    )
    .option(
      "--threads [store]",
      "instead of cases: replay the stored threads of the agent on this build and report the first turn of each that goes another way (store URL as chat --store takes it)",
    )
    .option("--since <date>", "with --threads: only threads active since this date (ISO 8601)")
    .option(
      "--strict",
      "with --threads: answer with the recorded model answers, tools and hooks, and compare replies too",
    )
    .option(
      "--judge-model <name>",
      "the model that scores `judge` expectations, as --model takes it ('offline' for the offline model; default: the agent's)",
    )
    .option(...STORE)
    .option("--no-store", "keep no experiment of this run");
  addModelOptions(command).action(async (agent: string, cases: string | undefined, flags: EvalFlags) =>
    (await import("../actions/eval.js")).evalCommand(agent, cases, flags),
  );
  const run =
    (sub: "list" | "show") =>
    async (...args: unknown[]) => {
      const self = args[args.length - 1] as Command;
      await (await import("../actions/eval-experiments.js")).experimentsCommand(
        sub,
        self.args,
        self.opts() as ExperimentFlags,
      );
    };
  command
    .command("list")
    .description(
      "list the stored experiments, the most recent first: id, when, agent, build, source hash, model, cases, passed, failed, time",
    )
    .option(...STORE)
    .option("--agent <name>", "only this agent's experiments (the agent's class name)")
    .option("--limit <N>", "at most N experiments", integer(1))
    .option("--json", "print them as JSON")
    .action(run("list"));
  command
    .command("show")
    .description(
      "print a stored experiment's table as it was when it ran, and what changed from the experiment it was compared with",
    )
    .argument("<id>", "the experiment")
    .option(
      "--compare <id>",
      "another experiment: the cases that pass on one and fail on the other, and where each changed turn parts, at each build's lines",
    )
    .option(...STORE)
    .option("--json", "print the experiment (its report, and the comparison) as JSON")
    .action(run("show"));
}
