// The tools of MCP servers as the runtime's tools: described by the servers (names, descriptions,
// input schemas), called through one connection per server.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { defineTool, type ToolParameters, type ToolRunOptions } from "../language/tools.js";
import type { Tool } from "../agent/agent.js";
import { checkMcpConfig, importName, type McpConfig } from "./config.js";
import { connect } from "./connect.js";
import type { ListedTool } from "./declarations.js";

export interface McpTools {
  /** Every server's tools, by the server's name for them (after the server's `prefix`). */
  tools: Record<string, Tool>;
  /** Each server's tools, by the name agent code imports them under from `mcp:SERVER`. */
  servers: Record<string, Record<string, Tool>>;
  /** Each server's tools as it lists them (for their declarations: mcpDeclarations). */
  listed: Record<string, ListedTool[]>;
  /** Closes the connections (and stops the servers started). */
  close(): Promise<void>;
}

interface CallResult {
  content?: { type: string; text?: string }[];
  structuredContent?: unknown;
  isError?: boolean;
}

const textOf = (result: CallResult) =>
  (result.content ?? [])
    .filter((c) => c.type === "text")
    .map((c) => c.text ?? "")
    .join("\n");

/** What a call gives back: the structured content when the server gives it, else its text; an error result throws. */
function valueOf(server: string, tool: string, result: CallResult): unknown {
  if (result.isError) throw new Error(`MCP tool '${tool}' of '${server}' failed: ${textOf(result) || "(no message)"}`);
  return result.structuredContent ?? textOf(result);
}

function toolOf(
  client: Client,
  server: string,
  name: string,
  remote: string,
  description: string | undefined,
  schema: unknown,
): Tool {
  const parameters = (
    typeof schema === "object" && schema !== null ? { properties: {}, ...schema } : { type: "object", properties: {} }
  ) as ToolParameters;
  return defineTool({
    // Models take tool names of letters, digits, '_' and '-': another name is offered as it is imported.
    name: /^[\w-]{1,64}$/.test(name) ? name : importName(name),
    parameters,
    description: description ?? `${remote}, a tool of the MCP server '${server}'`,
    // A call nobody waits for any more is cancelled at the server (the protocol's notifications/cancelled).
    run: async (args: Record<string, unknown>, options?: ToolRunOptions) =>
      valueOf(
        server,
        remote,
        (await client.callTool(
          { name: remote, arguments: args ?? {} },
          undefined,
          options?.signal ? { signal: options.signal } : undefined,
        )) as CallResult,
      ),
  });
}

/**
 * Connects to every server of the configuration and returns their tools. Two servers offering one
 * name is an error naming both (unless a server's `prefix` tells them apart).
 */
export async function mcpTools(config: McpConfig): Promise<McpTools> {
  const checked = checkMcpConfig(config);
  const clients: Client[] = [];
  const close = async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
  };
  const result: McpTools = { tools: {}, servers: {}, listed: {}, close };
  const owner = new Map<string, string>();
  try {
    for (const [server, settings] of Object.entries(checked.mcpServers)) {
      const client = await connect(server, settings);
      clients.push(client);
      const listed = await client.listTools();
      const mine: Record<string, Tool> = {};
      for (const t of listed.tools) {
        const name = `${settings.prefix ?? ""}${t.name}`;
        const other = owner.get(name);
        if (other !== undefined) {
          throw new Error(
            `MCP servers '${other}' and '${server}' both offer a tool '${name}': give one of them a "prefix" in the configuration`,
          );
        }
        owner.set(name, server);
        const tool = toolOf(client, server, name, t.name, t.description, t.inputSchema);
        result.tools[name] = tool;
        mine[importName(name)] = tool;
      }
      result.servers[server] = mine;
      result.listed[server] = listed.tools.map(({ name, description, inputSchema, outputSchema }) => ({
        name: `${settings.prefix ?? ""}${name}`,
        ...(description !== undefined && { description }),
        inputSchema,
        ...(outputSchema !== undefined && { outputSchema }),
      }));
    }
  } catch (err) {
    await close();
    throw err;
  }
  return result;
}
