import type { Command } from "commander";
import { addModelOptions } from "../agent-loading/model-options.js";
import type { McpFlags } from "../actions/mcp.js";
import { addAccessOptions } from "./access-options.js";
import { addBudgetOptions } from "./budget-options.js";
import { integer } from "./integer.js";

export function registerMcp(program: Command): void {
  const command = program
    .command("mcp")
    .summary("serve an agent over the Model Context Protocol: a chat tool, and its functions as tools")
    .description(
      "serve an agent as an MCP server, over stdio (the default) or Streamable HTTP (--http): a `chat` tool (message, optional thread; threads stored as chat --store stores them) and each of the agent's functions as a tool with its parameters. Over HTTP it answers as serve does: only requests naming this machine (Host), none that another site's page sends (Origin), with --token only those that carry it. Each call is bounded: its turns by the turn budgets, the whole call by --call-timeout-ms",
    )
    .argument("<file>", "an agent (.ts, compiled first) or a graph (.json)")
    .option("--http <port>", "serve Streamable HTTP on this port of 127.0.0.1 (0: any free one) instead of stdio")
    .option(
      "--store <url>",
      "where the chat tool keeps its threads (default: AUTOGRAMS_STORE, else the default SQLite file)",
    );
  addAccessOptions(command)
    .option(
      "--max-message-mb <mb>",
      "the largest message taken, in MiB: a longer HTTP body is refused with 413, a longer stdio line dropped with a JSON-RPC error",
      integer(1),
      4,
    )
    .option(
      "--call-timeout-ms <ms>",
      "how long one tool call may take in all (its model's answers and tools included): past it the call is stopped and fails, nothing committed",
      integer(1),
      60_000,
    );
  addBudgetOptions(command);
  addModelOptions(command).action(async (file: string, flags: McpFlags) =>
    (await import("../actions/mcp.js")).mcpCommand(file, flags),
  );
}
