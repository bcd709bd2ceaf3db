// The tools an agent imports from `mcp:NAME`: NAME is a server of the `.mcp.json` beside the agent
// (or of `--mcp-config FILE`). Only the servers the agent imports from are started, once for the
// command, and stopped when it ends. A `.mcp.json` found beside the agent must have been approved
// (mcp-approval.ts); a file named with --mcp-config is approved by being named.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Graph, Tool, ToolInfo } from "@autograms/runtime";
import type { McpConfig, McpTools } from "@autograms/runtime/mcp";
import { CliError } from "./cli-error.js";
import { closeAtEnd } from "./command-scope.js";
import { checkApproved } from "./mcp-approval.js";
import { readMcpConfig } from "./mcp-config.js";

export const MCP_PREFIX = "mcp:";

export const isMcpTool = (t: ToolInfo) => t.module.startsWith(MCP_PREFIX);

/** The servers a graph's tools come from. */
export const mcpServersOf = (graph: Pick<Graph, "tools">): string[] => [
  ...new Set(
    Object.values(graph.tools ?? {})
      .filter(isMcpTool)
      .map((t) => t.module.slice(MCP_PREFIX.length)),
  ),
];

export interface McpFlags {
  /** The configuration named on the command line, instead of the `.mcp.json` beside the agent. */
  mcpConfig?: string;
  /** Approve the `.mcp.json` beside the agent as it is now (and remember it). */
  approveMcp?: boolean;
}

// The connections open in this process: what `serve`'s /readyz asks about.
const opened = new Set<McpTools>();

/** Why the process cannot play turns now: an MCP server it uses is down (undefined: all are up). */
export function mcpServersDown(): string | undefined {
  // The why (the server's last words) stays out: probes are not authenticated.
  for (const tools of opened)
    for (const [server, health] of Object.entries(tools.health()))
      if (!health.up) return `MCP server '${server}' is down`;
  return undefined;
}

export async function loadMcpTools(
  graph: Pick<Graph, "tools">,
  baseDir: string,
  flags: McpFlags,
): Promise<Record<string, Tool>> {
  const { tools, close } = await openMcpTools(graph, baseDir, flags);
  closeAtEnd(close);
  return tools;
}

/**
 * The configuration's servers, started, after the approval check: `path` the file, `servers` those
 * to start (all when not given).
 */
export async function startMcpServers(
  path: string,
  config: McpConfig,
  flags: McpFlags & { servers?: string[] },
): Promise<McpTools> {
  const servers = flags.servers ?? Object.keys(config.mcpServers);
  if (flags.mcpConfig === undefined) checkApproved(path, config, servers, flags.approveMcp === true);
  const { mcpTools } = await import("@autograms/runtime/mcp");
  let started: McpTools;
  try {
    started = await mcpTools({ mcpServers: Object.fromEntries(servers.map((s) => [s, config.mcpServers[s]!])) });
  } catch (err) {
    throw new CliError(`${path}: ${(err as Error).message}`);
  }
  opened.add(started);
  const close = started.close;
  started.close = () => {
    opened.delete(started);
    return close();
  };
  return started;
}

/** The MCP tools the graph imports, with what stops their servers: for a holder that ends before the command (a build of `serve --watch`). */
export async function openMcpTools(
  graph: Pick<Graph, "tools">,
  baseDir: string,
  flags: McpFlags,
): Promise<{ tools: Record<string, Tool>; close: () => Promise<void> }> {
  const wanted = Object.entries(graph.tools ?? {}).filter(([, t]) => isMcpTool(t));
  if (wanted.length === 0) return { tools: {}, close: async () => {} };
  const configFile = flags.mcpConfig;
  const path = configFile === undefined ? join(baseDir, ".mcp.json") : resolve(configFile);
  const [firstName, first] = wanted[0]!;
  if (!existsSync(path)) {
    throw new CliError(
      `tool '${firstName}' is imported from '${first.module}', but there is no ${configFile === undefined ? `.mcp.json beside the agent (${path})` : `file ${path}`}: write one, or give --mcp-config FILE`,
    );
  }
  const config = await readMcpConfig(path);
  for (const [name, t] of wanted) {
    const server = t.module.slice(MCP_PREFIX.length);
    if (!config.mcpServers[server])
      throw new CliError(
        `tool '${name}' is imported from '${t.module}', but ${path} has no server '${server}' (it has ${Object.keys(config.mcpServers).join(", ") || "none"})`,
      );
  }
  const started = await startMcpServers(path, config, { ...flags, servers: mcpServersOf(graph) });
  const tools: Record<string, Tool> = {};
  for (const [name, t] of wanted) {
    const server = t.module.slice(MCP_PREFIX.length);
    const offered = started.servers[server]!;
    const tool = offered[t.export];
    if (!tool) {
      await started.close();
      const { importName } = await import("@autograms/runtime/mcp");
      const refused = Object.entries(started.refused[server] ?? {}).find(([remote]) => importName(remote) === t.export);
      throw new CliError(
        refused
          ? `tool '${name}': the MCP server '${server}' offers '${refused[0]}', but it was left out: ${refused[1]}`
          : `tool '${name}': the MCP server '${server}' has no tool '${t.export}' (it has ${Object.keys(offered).join(", ")})`,
      );
    }
    tools[name] = tool;
  }
  return { tools, close: started.close };
}
