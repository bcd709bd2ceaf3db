// `autograms mcp`: the agent as an MCP server. A `chat` tool takes a turn of a thread of the store
// (as `chat --store` does), and each function of the agent is a tool of its own (as `run` calls it).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import type { Agent, JsonValue } from "@autograms/runtime";
import { openStore, runTurn, type Store } from "@autograms/store";
import { CliError } from "../agent-loading/cli-error.js";
import { closeAtEnd } from "../agent-loading/command-scope.js";
import type { ModelFlags } from "../agent-loading/model-options.js";
import { openAgent } from "../agent-loading/open-agent.js";
import { loadOptional } from "../agent-loading/optional-package.js";
import { reporting } from "../agent-loading/report-error.js";
import { storeUrl } from "../conversation/store-url.js";

export interface McpFlags extends ModelFlags {
  http?: string;
  store?: string;
}

const SDK = "@modelcontextprotocol/sdk";
const WHY = "autograms mcp";

export function mcpCommand(file: string, flags: McpFlags): Promise<void> {
  return reporting("mcp", (onLoaded) => serveMcp(file, flags, onLoaded), { traced: true });
}

interface ToolEntry {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, object>; required?: string[] };
}

/** The tools: `chat`, then the agent's functions with their parameters (any JSON value each). */
function toolsOf(agent: Agent): ToolEntry[] {
  const chat: ToolEntry = {
    name: "chat",
    description: `Send a message to the agent ${agent.graph.agent} and get its reply. Give the thread id it returned to go on with the same conversation; leave it out to start a new one.`,
    inputSchema: {
      type: "object",
      properties: { message: { type: "string" }, thread: { type: "string" } },
      required: ["message"],
    },
  };
  const functions = Object.entries(agent.graph.functions).map(([name, info]): ToolEntry => {
    const required = info.params.filter((p) => !Object.hasOwn(info.defaults ?? {}, p));
    return {
      name,
      description: `The agent's function ${name}(${info.params.join(", ")}).`,
      inputSchema: {
        type: "object",
        properties: Object.fromEntries(info.params.map((p) => [p, {}])),
        ...(required.length > 0 && { required }),
      },
    };
  });
  return [chat, ...functions];
}

const text = (value: unknown, isError = false) => ({
  content: [{ type: "text" as const, text: typeof value === "string" ? value : JSON.stringify(value) }],
  ...(isError && { isError }),
});

async function callTool(agent: Agent, store: Store, name: string, args: Record<string, unknown>) {
  try {
    if (name === "chat") {
      if (typeof args.message !== "string") return text("chat: `message` must be a string", true);
      const thread = typeof args.thread === "string" ? args.thread : randomUUID();
      // A new thread starts with the agent's opening turn, as `chat --store` starts one.
      if ((await store.thread(thread)) === null) await runTurn(store, agent, thread, null);
      const { reply } = await runTurn(store, agent, thread, args.message);
      return { ...text(reply ?? "(the conversation has ended)"), structuredContent: { reply, thread } };
    }
    const info = agent.graph.functions[name];
    if (!info) return text(`no tool '${name}'`, true);
    const value = await agent.call(
      name,
      info.params.filter((p) => p in args).map((p) => args[p] as JsonValue),
    );
    return { ...text(value), structuredContent: { value } };
  } catch (err) {
    // The caller sees why the call failed; the server goes on.
    return text(err instanceof Error ? err.message : String(err), true);
  }
}

async function serveMcp(
  file: string,
  flags: McpFlags,
  onLoaded: Parameters<typeof openAgent>[2]["onLoaded"],
): Promise<void> {
  if (flags.http !== undefined && (!/^\d{1,5}$/.test(flags.http) || Number(flags.http) > 65535))
    throw new CliError(`--http takes a port number (0 to 65535), not '${flags.http}'`, 2);
  const { agent } = await openAgent(file, flags, { modelRequired: false, ...(onLoaded ? { onLoaded } : {}) });
  const store = await openStore(storeUrl(flags.store));
  closeAtEnd(() => store.close());
  const { Server } = (await loadOptional(
    `${SDK}/server/index.js`,
    `${SDK}@1`,
    WHY,
  )) as typeof import("@modelcontextprotocol/sdk/server/index.js");
  const types = (await loadOptional(
    `${SDK}/types.js`,
    `${SDK}@1`,
    WHY,
  )) as typeof import("@modelcontextprotocol/sdk/types.js");
  const tools = toolsOf(agent);
  const server = () => {
    const s = new Server({ name: agent.graph.agent, version: "1.0.0" }, { capabilities: { tools: {} } });
    s.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools }));
    s.setRequestHandler(types.CallToolRequestSchema, async (req) =>
      callTool(agent, store, req.params.name, req.params.arguments ?? {}),
    );
    return s;
  };
  if (flags.http === undefined) {
    const { StdioServerTransport } = (await loadOptional(
      `${SDK}/server/stdio.js`,
      `${SDK}@1`,
      WHY,
    )) as typeof import("@modelcontextprotocol/sdk/server/stdio.js");
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    await server().connect(transport);
    // Until the client closes stdin.
    await Promise.race([closed, new Promise<void>((resolve) => process.stdin.once("end", resolve))]);
    return;
  }
  const { StreamableHTTPServerTransport } = (await loadOptional(
    `${SDK}/server/streamableHttp.js`,
    `${SDK}@1`,
    WHY,
  )) as typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js");
  // Stateless: each request gets a server and a transport of its own; threads carry the conversation.
  const http = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const s = server();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void s.close();
    });
    await s.connect(transport);
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      res.writeHead(400).end("the body is not JSON");
      return;
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve, reject) =>
    http.once("error", reject).listen(Number(flags.http), "127.0.0.1", resolve),
  );
  process.stdout.write(`MCP server on http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop).off("SIGTERM", stop);
      http.closeAllConnections();
      http.close(() => resolve());
    };
    process.on("SIGINT", stop).on("SIGTERM", stop);
  });
}
