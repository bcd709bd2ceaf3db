import type { Command } from "commander";
import type { McpTypesFlags } from "../actions/mcp-types.js";

export function registerMcpTypes(program: Command): void {
  program
    .command("mcp-types")
    .summary('write the TypeScript declarations of MCP servers\' tools (`import { x } from "mcp:NAME"`)')
    .description(
      "connect to the MCP servers of a configuration (.mcp.json) and write the declarations of the modules `mcp:NAME` from their tools' JSON Schemas, so that agents that import their tools type-check; given an agent, only the servers it imports from are started",
    )
    .argument("[agent]", "start only the servers this agent imports from (default: every server of the configuration)")
    .option(
      "--mcp-config <file>",
      "the servers' configuration (default: the .mcp.json beside the agent, else in the working folder, once approved)",
    )
    .option("--approve-mcp", "approve the default .mcp.json to start its servers, as it is now (remembered)")
    .option(
      "-o, --out <file>",
      "where to write the declarations (default: stdout), e.g. mcp-tools.d.ts beside the agent",
    )
    .action(async (agent: string | undefined, flags: McpTypesFlags) =>
      (await import("../actions/mcp-types.js")).mcpTypesCommand(agent, flags),
    );
}
