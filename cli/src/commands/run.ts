import type { Command } from "commander";
import { addModelOptions } from "../agent-loading/model-options.js";
import type { RunFlags } from "../actions/run.js";

export function registerRun(program: Command): void {
  const command = program
    .command("run")
    .summary("call one of an agent's functions and print what it returns")
    .description(
      "call one of an agent's functions and print its return value as JSON; a model is needed only if the function asks one",
    )
    .argument("<file>", "an agent (.ts, compiled first) or a graph (.json)")
    .argument("<function>", "the function to call")
    .argument("[args...]", "its arguments: JSON where they parse (10, '[3, 1, 2]', '\"10\"', true), else strings");
  addModelOptions(command)
    .option("--trace <file>", "write every step as one JSON event per line (docs/runtime.md)")
    .action(async (file: string, name: string, args: string[], flags: RunFlags) =>
      (await import("../actions/run.js")).runCommand(file, name, args, flags),
    );
}
