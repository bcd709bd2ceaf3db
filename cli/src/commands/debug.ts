import type { Command } from "commander";
import { addModelOptions } from "../agent-loading/model-options.js";
import type { DebugFlags } from "../actions/debug.js";

export function registerDebug(program: Command): void {
  const command = program
    .command("debug")
    .summary("debug an agent in the terminal: breakpoints, steps, variables")
    .description(
      "debug an agent in the terminal: breakpoints on lines of its .ts file or on functions, step node by node, print variables and scopes, show the function stack; on a live model or replaying a recorded trace (docs/debugging.md)",
    )
    .argument("<file>", "an agent (.ts, compiled first) or a graph (.json)")
    .option("--replay <trace.jsonl>", "replay a conversation recorded with --trace instead of asking a model")
    .option("--conversation <n>", "which conversation of a trace that holds several (as simulate writes)", "1")
    .option(
      "-b, --break <spec>",
      "a breakpoint to start with: LINE, FILE:LINE, FUNCTION or a node's name (repeatable)",
      (v: string, all: string[] = []) => [...all, v],
    );
  addModelOptions(command).action(async (file: string, flags: DebugFlags) =>
    (await import("../actions/debug.js")).debugCommand(file, flags),
  );
}
