import type { Command } from "commander";
import { integer } from "./integer.js";

/** A turn's budgets (`serve`, `mcp`): what it may compute and write before it fails, nothing committed. */
export function addBudgetOptions(command: Command): Command {
  return command
    .option(
      "--turn-time-ms <ms>",
      "a turn's time budget: milliseconds it may compute without waiting (for its model, a tool); over it the turn fails with time_budget, nothing committed (default 10000)",
      integer(1),
    )
    .option(
      "--turn-memory-mb <mb>",
      "a turn's memory budget: MiB its steps may write; over it the turn fails with memory_budget, nothing committed (default 256)",
      integer(1),
    );
}
