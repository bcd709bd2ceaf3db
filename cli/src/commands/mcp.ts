import type { Command } from "commander";
import { addModelOptions } from "../agent-loading/model-options.js";
import type { McpFlags } from "../actions/mcp.js";

export function registerMcp(program: Command): void {
  const command = program
    .command("mcp")
    .summary("serve an agent over the Model Context Protocol: a chat tool, and its functions as tools")
    .description(
      "serve an agent as an MCP server, over stdio (the default) or Streamable HTTP (--http): a `chat` tool (message, optional thread; threads stored as chat --store stores them) and each of the agent's functions as a tool with its parameters",
    )
    .argument("<file>", "an agent (.ts, compiled first) or a graph (.json)")
    .option("--http <port>", "serve Streamable HTTP on this port of 127.0.0.1 (0: any free one) instead of stdio")
    .option(
      "--store <url>",
      "where the chat tool keeps its threads (default: AUTOGRAMS_STORE, else the default SQLite file)",
    );
  addModelOptions(command).action(async (file: string, flags: McpFlags) =>
    (await import("../actions/mcp.js")).mcpCommand(file, flags),
  );
}
