import type { Command } from "commander";
import type { McpTypesFlags } from "../actions/mcp-types.js";

export function registerMcpTypes(program: Command): void {
  program
    .command("mcp-types")
    .summary('write the TypeScript declarations of MCP servers\' tools (`import { x } from "mcp:NAME"`)')
    .description(
      "connect to the MCP servers of a configuration (.mcp.json) and write the declarations of the modules `mcp:NAME` from their tools' JSON Schemas, so that agents that import their tools type-check",
    )
    .option("--mcp-config <file>", "the servers' configuration", ".mcp.json")
    .option(
      "-o, --out <file>",
      "where to write the declarations (default: stdout), e.g. mcp-tools.d.ts beside the agent",
    )
    .action(async (flags: McpTypesFlags) => (await import("../actions/mcp-types.js")).mcpTypesCommand(flags));
}
