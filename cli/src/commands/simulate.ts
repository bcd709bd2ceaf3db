import type { Command } from "commander";
import { addModelOptions } from "../agent-loading/model-options.js";
import type { SimulateFlags } from "../actions/simulate.js";
import { integer } from "./integer.js";

export function registerSimulate(program: Command): void {
  const command = program
    .command("simulate")
    .summary("hold conversations between an agent and simulated users")
    .description(
      "hold conversations between an agent and simulated users (the graph's user-simulation fields); transcripts go to a folder, a summary to stdout",
    )
    .argument("<file>", "an agent (.ts, compiled first) or a graph (.json)")
    .option("-n, --conversations <N>", "how many conversations", integer(1), 1)
    .option("-o, --out <dir>", "the folder for the transcripts (conversation-<i>.json and .md)", "simulations")
    .option("--max-turns <T>", "stop a conversation after this many turns", integer(1), 40)
    .option(
      "--seed <S>",
      "seed of the simulated users' random choices, to repeat a run (default: a new one, printed)",
      integer(0),
    );
  addModelOptions(command)
    .option(
      "--trace <path>",
      "write every step as JSON lines: one file (path ending in .jsonl, each event with its conversation's number) or a folder of conversation-<i>.jsonl",
    )
    .option(
      "--coverage <file>",
      "write lcov coverage of the agent's source lines the conversations reached, and print a per-function summary",
    )
    .action(async (file: string, flags: SimulateFlags) =>
      (await import("../actions/simulate.js")).simulateCommand(file, flags),
    );
}
