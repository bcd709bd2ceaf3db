import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { mcpDeclarations } from "@autograms/runtime/mcp";
import { CliError } from "../agent-loading/cli-error.js";
import { readMcpConfig } from "../agent-loading/mcp-config.js";
import { mcpServersOf, startMcpServers } from "../agent-loading/mcp-tools.js";
import { reporting } from "../agent-loading/report-error.js";

export interface McpTypesFlags {
  mcpConfig?: string;
  approveMcp?: boolean;
  out?: string;
}

export function mcpTypesCommand(agent: string | undefined, flags: McpTypesFlags): Promise<void> {
  return reporting("mcp-types", () => write(agent, flags));
}

async function write(agent: string | undefined, flags: McpTypesFlags): Promise<void> {
  // With an agent, only the servers it imports from are started, and its folder's .mcp.json is the default.
  let servers: string[] | undefined;
  let folder = ".";
  if (agent !== undefined) {
    const { loadAgentGraph } = await import("../agent-loading/load-graph.js");
    const loaded = await loadAgentGraph(agent);
    servers = mcpServersOf(loaded.graph);
    folder = loaded.baseDir;
  }
  const path = resolve(flags.mcpConfig ?? join(folder, ".mcp.json"));
  if (!existsSync(path)) throw new CliError(`--mcp-config: no file ${path}`, 2);
  const config = await readMcpConfig(path);
  for (const server of servers ?? [])
    if (!config.mcpServers[server])
      throw new CliError(`${agent} imports from 'mcp:${server}', but ${path} has no server '${server}'`);
  const opened = await startMcpServers(path, config, { ...flags, ...(servers && { servers }) });
  try {
    for (const [server, refused] of Object.entries(opened.refused))
      for (const [tool, why] of Object.entries(refused))
        process.stderr.write(`(left out: tool '${tool}' of the MCP server '${server}': ${why})\n`);
    const text = mcpDeclarations(opened.listed);
    if (flags.out === undefined) process.stdout.write(text);
    else writeFileSync(flags.out, text);
  } finally {
    await opened.close();
  }
}
