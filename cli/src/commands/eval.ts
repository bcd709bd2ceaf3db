import type { Command } from "commander";
import { addModelOptions } from "../agent-loading/model-options.js";
import type { EvalFlags } from "../actions/eval.js";
import { integer } from "./integer.js";

export function registerEval(program: Command): void {
  const command = program
    .command("eval")
    .summary("run a file of test conversations on an agent and score what it does")
    .description(
      "run the cases of a cases file (JSONL or YAML, docs/evals.md) on an agent, each on its own memory: a table of every expectation on stdout; exit 1 when any fails",
    )
    .argument("<agent>", "an agent (.ts, compiled first) or a graph (.json)")
    .argument("[cases]", "the cases file (.jsonl, .yaml or .yml); none with --threads")
    .option("--concurrency <N>", "cases run at once", integer(1), 4)
    .option("--repeat <N>", "run each case N times and report pass rates", integer(1), 1)
    .option("--junit <file>", "also write the results as JUnit XML (for CI)")
    .option("--json <file>", "also write the results as JSON (every turn's path, reply and scores)")
    .option(
      "--compare <other>",
      "also run the cases on another build: an agent or graph file, or model:NAME for this agent on another model; print what changed",
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
    );
  addModelOptions(command).action(async (agent: string, cases: string | undefined, flags: EvalFlags) =>
    (await import("../actions/eval.js")).evalCommand(agent, cases, flags),
  );
}
