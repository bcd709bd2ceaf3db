// The tools an agent imports from `mcp:NAME`: NAME is a server of the `.mcp.json` beside the agent
// (or of `--mcp-config FILE`). Only the servers the agent imports from are started, once for the
// command, and stopped when it ends.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Graph, Tool, ToolInfo } from "@autograms/runtime";
import { CliError } from "./cli-error.js";
import { closeAtEnd } from "./command-scope.js";

export const MCP_PREFIX = "mcp:";

export const isMcpTool = (t: ToolInfo) => t.module.startsWith(MCP_PREFIX);

export async function loadMcpTools(
  graph: Pick<Graph, "tools">,
  baseDir: string,
  configFile: string | undefined,
): Promise<Record<string, Tool>> {
  const { tools, close } = await openMcpTools(graph, baseDir, configFile);
  closeAtEnd(close);
  return tools;
}

/** The MCP tools the graph imports, with what stops their servers: for a holder that ends before the command (a build of `serve --watch`). */
export async function openMcpTools(
  graph: Pick<Graph, "tools">,
  baseDir: string,
  configFile: string | undefined,
): Promise<{ tools: Record<string, Tool>; close: () => Promise<void> }> {
  const wanted = Object.entries(graph.tools ?? {}).filter(([, t]) => isMcpTool(t));
  if (wanted.length === 0) return { tools: {}, close: async () => {} };
  const path = configFile === undefined ? join(baseDir, ".mcp.json") : resolve(configFile);
  const [firstName, first] = wanted[0]!;
  if (!existsSync(path)) {
    throw new CliError(
      `tool '${firstName}' is imported from '${first.module}', but there is no ${configFile === undefined ? `.mcp.json beside the agent (${path})` : `file ${path}`}: write one, or give --mcp-config FILE`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new CliError(`${path}: not JSON: ${(err as Error).message}`);
  }
  const { checkMcpConfig, mcpTools } = await import("@autograms/runtime/mcp");
  const config = (() => {
    try {
      return checkMcpConfig(json, path);
    } catch (err) {
      throw new CliError((err as Error).message);
    }
  })();
  const servers = new Map<string, (typeof config.mcpServers)[string]>();
  for (const [name, t] of wanted) {
    const server = t.module.slice(MCP_PREFIX.length);
    const settings = config.mcpServers[server];
    if (!settings)
      throw new CliError(
        `tool '${name}' is imported from '${t.module}', but ${path} has no server '${server}' (it has ${Object.keys(config.mcpServers).join(", ") || "none"})`,
      );
    // A server's relative paths are the configuration's, as editors read them.
    servers.set(server, "command" in settings ? { cwd: dirname(path), ...settings } : settings);
  }
  let opened;
  try {
    opened = await mcpTools({ mcpServers: Object.fromEntries(servers) });
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const tools: Record<string, Tool> = {};
  for (const [name, t] of wanted) {
    const server = t.module.slice(MCP_PREFIX.length);
    const offered = opened.servers[server]!;
    const tool = offered[t.export];
    if (!tool) {
      await opened.close();
      throw new CliError(
        `tool '${name}': the MCP server '${server}' has no tool '${t.export}' (it has ${Object.keys(offered).join(", ")})`,
      );
    }
    tools[name] = tool;
  }
  return { tools, close: opened.close };
}
