/**
 * The agent's MCP server as `autograms mcp` runs it, over stdio or Streamable HTTP: its tools
 * (agent-tools.ts), its calls in progress (stopped when it stops), and the two transports with
 * their bounds: over HTTP the guards of `serve` (listenEndpoint), over stdio a bounded line.
 */
import type { Agent } from "@autograms/runtime";
import { listenEndpoint, type RunningEndpoint } from "@autograms/server";
import type { Store } from "@autograms/store";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { loadOptional } from "../agent-loading/optional-package.js";
import { toolCaller, toolsOf, type CallBounds, type ToolResult } from "./agent-tools.js";
import { BoundedStdioTransport } from "./stdio-lines.js";

/** The SDK's modules this server uses (an optional package of the command: loaded when asked). */
export interface McpSdk {
  Server: typeof import("@modelcontextprotocol/sdk/server/index.js").Server;
  types: typeof import("@modelcontextprotocol/sdk/types.js");
  HttpTransport: typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js").WebStandardStreamableHTTPServerTransport;
}

const SDK = "@modelcontextprotocol/sdk";

export async function loadSdk(): Promise<McpSdk> {
  const load = <T>(path: string) => loadOptional(`${SDK}/${path}`, `${SDK}@1`, "autograms mcp") as Promise<T>;
  const [{ Server }, types, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
    load<typeof import("@modelcontextprotocol/sdk/server/index.js")>("server/index.js"),
    load<typeof import("@modelcontextprotocol/sdk/types.js")>("types.js"),
    load<typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js")>(
      "server/webStandardStreamableHttp.js",
    ),
  ]);
  return { Server, types, HttpTransport: WebStandardStreamableHTTPServerTransport };
}

export interface HttpOptions {
  /** 0: any free one. */
  port: number;
  token?: string;
  allowedHosts?: readonly string[];
  /** Largest request body, in bytes. */
  maxBodyBytes: number;
}

/** How long the calls in progress may take to let go of their threads once the server stops. */
const STOP_WAIT_MS = 2000;

export class AgentMcpServer {
  private readonly stopping = new AbortController();
  private readonly calls = new Set<Promise<ToolResult>>();
  private readonly call: ReturnType<typeof toolCaller>;
  private readonly tools;

  constructor(
    private readonly agent: Agent,
    store: Store,
    bounds: CallBounds,
    private readonly sdk: McpSdk,
  ) {
    this.tools = toolsOf(agent);
    this.call = toolCaller(agent, store, bounds);
  }

  /** A server of the agent's tools, for one transport. */
  server(): Server {
    const { Server, types } = this.sdk;
    const s = new Server({ name: this.agent.graph.agent, version: "1.0.0" }, { capabilities: { tools: {} } });
    s.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: this.tools }));
    s.setRequestHandler(types.CallToolRequestSchema, (req, extra) => {
      const signal = AbortSignal.any([extra.signal, this.stopping.signal]);
      const done = this.call(req.params.name, req.params.arguments ?? {}, signal);
      this.calls.add(done);
      void done.finally(() => this.calls.delete(done));
      return done;
    });
    return s;
  }

  /** Serves stdin and stdout until the client closes stdin; a line over `maxBytes` is dropped. */
  async overStdio(maxBytes: number, input?: NodeJS.ReadableStream, output?: NodeJS.WritableStream): Promise<void> {
    const schema = this.sdk.types.JSONRPCMessageSchema;
    const transport = new BoundedStdioTransport(maxBytes, (v) => schema.parse(v), input, output);
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    await this.server().connect(transport);
    await closed;
  }

  /**
   * Serves Streamable HTTP at `/mcp` of 127.0.0.1, statelessly: each request gets a server and a
   * transport of its own, threads carry the conversation; the answer is JSON, sent once the call is done.
   */
  overHttp(options: HttpOptions): Promise<RunningEndpoint> {
    return listenEndpoint({
      path: "/mcp",
      port: options.port,
      ...(options.token !== undefined && { token: options.token }),
      ...(options.allowedHosts && { allowedHosts: options.allowedHosts }),
      maxBodyBytes: options.maxBodyBytes,
      bodyOption: "--max-message-mb",
      handle: async (req, body) => {
        const s = this.server();
        const transport = new this.sdk.HttpTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        await s.connect(transport);
        // A client that goes away stops its call: closing the server aborts its handlers.
        req.signal.addEventListener("abort", () => void s.close(), { once: true });
        try {
          return await transport.handleRequest(req, { parsedBody: body });
        } finally {
          void s.close();
        }
      },
    });
  }

  /** Stops the calls in progress: each lets go of its thread (released, nothing committed) before the store closes. */
  async stop(): Promise<void> {
    this.stopping.abort(new Error("the MCP server is stopping"));
    await Promise.race([Promise.allSettled([...this.calls]), new Promise((r) => setTimeout(r, STOP_WAIT_MS).unref())]);
  }
}
