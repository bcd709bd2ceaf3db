// The tools of MCP servers as the runtime's tools: described by the servers (names, descriptions,
// input schemas), called through one connection per server.
import { defineTool, type ToolParameters, type ToolRunOptions } from "../language/tools.js";
import type { Tool } from "../agent/agent.js";
import { argumentsProblem, readableRefusal } from "./arguments.js";
import { checkMcpConfig, importName, type McpConfig, SERVER_BOUNDS } from "./config.js";
import { type CallResult, McpConnection, type ServerHealth } from "./connection.js";
import type { ListedTool } from "./declarations.js";
import { DEFAULT_MCP_LIMITS, type McpLimits } from "./limits.js";
import { nestsDeeperThan } from "./schema-depth.js";

export interface McpTools {
  /** Every server's tools, by the server's name for them (after the server's `prefix`). */
  tools: Record<string, Tool>;
  /** Each server's tools, by the name agent code imports them under from `mcp:SERVER`. */
  servers: Record<string, Record<string, Tool>>;
  /** Each server's tools as it lists them (for their declarations: mcpDeclarations). */
  listed: Record<string, ListedTool[]>;
  /** The tools left out, by server and the server's name for them: why (a schema nested too deep). */
  refused: Record<string, Record<string, string>>;
  /** Each server's state: a stdio server that died is down until it is started again. */
  health(): Record<string, ServerHealth>;
  /** Closes the connections (and stops the servers started, with whatever they started). */
  close(): Promise<void>;
}

export interface McpToolsOptions {
  /** Bounds on what a server may send and how it is stopped and restarted (defaults: DEFAULT_MCP_LIMITS). */
  limits?: Partial<McpLimits>;
}

const textOf = (result: CallResult) =>
  (result.content ?? [])
    .filter((c) => c.type === "text")
    .map((c) => c.text ?? "")
    .join("\n");

function toolOf(
  connection: McpConnection,
  name: string,
  remote: string,
  description: string | undefined,
  schema: unknown,
): Tool {
  const server = connection.name;
  const parameters = (
    typeof schema === "object" && schema !== null ? { properties: {}, ...schema } : { type: "object", properties: {} }
  ) as ToolParameters;
  const failed = (why: string) => new Error(`MCP tool '${remote}' of '${server}' failed: ${why}`);
  return defineTool({
    // Models take tool names of letters, digits, '_' and '-': another name is offered as it is imported.
    name: /^[\w-]{1,64}$/.test(name) ? name : importName(name),
    parameters,
    description: description ?? `${remote}, a tool of the MCP server '${server}'`,
    // A call nobody waits for any more is cancelled at the server (the protocol's notifications/cancelled).
    run: async (args: Record<string, unknown>, options?: ToolRunOptions) => {
      const problem = argumentsProblem(schema, args ?? {});
      if (problem !== undefined) throw new Error(`MCP tool '${remote}' of '${server}': ${problem}`);
      let result: CallResult;
      try {
        result = await connection.call(remote, args ?? {}, options?.signal);
      } catch (err) {
        throw failed(readableRefusal(err instanceof Error ? err.message : String(err)));
      }
      // An error result throws; otherwise the structured content when the server gives it, else the text.
      if (result.isError) throw failed(readableRefusal(textOf(result)) || "(no message)");
      return result.structuredContent ?? textOf(result);
    },
  });
}

/**
 * Connects to every server of the configuration and returns their tools. Two servers offering one
 * name is an error naming both (unless a server's `prefix` tells them apart). A tool whose schema
 * nests deeper than `maxSchemaDepth` is left out (`refused` says why), the others are offered.
 */
export async function mcpTools(config: McpConfig, options: McpToolsOptions = {}): Promise<McpTools> {
  const checked = checkMcpConfig(config);
  const limits = { ...DEFAULT_MCP_LIMITS, ...options.limits };
  const connections: McpConnection[] = [];
  const close = async () => {
    await Promise.allSettled(connections.map((c) => c.close()));
  };
  const health = () => Object.fromEntries(connections.map((c) => [c.name, c.health()]));
  const result: McpTools = { tools: {}, servers: {}, listed: {}, refused: {}, health, close };
  const owner = new Map<string, string>();
  try {
    for (const [server, settings] of Object.entries(checked.mcpServers)) {
      const own = Object.fromEntries(
        SERVER_BOUNDS.filter((b) => settings[b] !== undefined).map((b) => [b, settings[b]]),
      );
      const connection = new McpConnection(server, settings, { ...limits, ...own });
      connections.push(connection);
      const client = await connection.open();
      const listed = await client.listTools();
      const mine: Record<string, Tool> = {};
      const kept: ListedTool[] = [];
      for (const t of listed.tools) {
        const name = `${settings.prefix ?? ""}${t.name}`;
        if (
          nestsDeeperThan(t.inputSchema, limits.maxSchemaDepth) ||
          nestsDeeperThan(t.outputSchema, limits.maxSchemaDepth)
        ) {
          (result.refused[server] ??= {})[name] =
            `its schema nests deeper than ${limits.maxSchemaDepth} levels (maxSchemaDepth)`;
          continue;
        }
        const other = owner.get(name);
        if (other !== undefined) {
          throw new Error(
            `MCP servers '${other}' and '${server}' both offer a tool '${name}': give one of them a "prefix" in the configuration`,
          );
        }
        owner.set(name, server);
        const tool = toolOf(connection, name, t.name, t.description, t.inputSchema);
        result.tools[name] = tool;
        mine[importName(name)] = tool;
        kept.push({
          name,
          ...(t.description !== undefined && { description: t.description }),
          inputSchema: t.inputSchema,
          ...(t.outputSchema !== undefined && { outputSchema: t.outputSchema }),
        });
      }
      result.servers[server] = mine;
      result.listed[server] = kept;
    }
  } catch (err) {
    await close();
    throw err;
  }
  return result;
}
