// One server's connection through @modelcontextprotocol/sdk (an optional peer dependency, loaded
// only here), kept alive: a stdio server that dies is started again (at once when a call waits for
// it, else after a backoff), up to maxRestarts times in a row; what state it is in is its health.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { boundedFetch } from "./bounded-fetch.js";
import type { McpServerConfig } from "./config.js";
import type { McpLimitError, McpLimits } from "./limits.js";
import { ProcessGroupTransport } from "./stdio-transport.js";

const SDK = "@modelcontextprotocol/sdk";
const SDK_VERSION = "1";

// A specifier in a variable: bundlers leave the import to run time.
const load = (path: string): Promise<unknown> => import(path);

async function sdk<T>(path: string): Promise<T> {
  try {
    return (await load(`${SDK}/${path}`)) as T;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e?.code === "ERR_MODULE_NOT_FOUND" && e.message.includes(SDK)) {
      throw new Error(`MCP servers need the ${SDK} package, which is not installed: npm install ${SDK}@${SDK_VERSION}`);
    }
    throw err;
  }
}

/** A server's state: `up`, or why it is not (starting again, or left down). */
export interface ServerHealth {
  up: boolean;
  why?: string;
}

const BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 10_000;

export interface CallResult {
  content?: { type: string; text?: string }[];
  structuredContent?: unknown;
  isError?: boolean;
}

export class McpConnection {
  private client?: Client;
  private starting?: Promise<Client>;
  private transport?: ProcessGroupTransport;
  private closed = false;
  /** Restarts since a call was last answered. */
  private restarts = 0;
  private timer?: NodeJS.Timeout;
  private overflows = 0;
  private overflow?: McpLimitError;
  private why?: string;

  constructor(
    readonly name: string,
    private readonly server: McpServerConfig,
    private readonly limits: McpLimits,
  ) {}

  /** How the server was started, for messages. */
  get where(): string {
    return "url" in this.server ? this.server.url : [this.server.command, ...(this.server.args ?? [])].join(" ");
  }

  health(): ServerHealth {
    return this.client ? { up: true } : { up: false, why: this.why ?? "starting" };
  }

  /** The first start: what goes wrong is thrown, naming the server. */
  async open(): Promise<Client> {
    this.starting = this.connect();
    try {
      return await this.starting;
    } finally {
      this.starting = undefined;
    }
  }

  private async connect(): Promise<Client> {
    const { Client } = await sdk<typeof import("@modelcontextprotocol/sdk/client/index.js")>("client/index.js");
    const client = new Client({ name: "autograms", version: "0.1.0" });
    const transport = await this.transportOf();
    try {
      await client.connect(transport);
    } catch (err) {
      await client.close().catch(() => undefined);
      throw new Error(`MCP server '${this.name}' (${this.where}) could not be started: ${await this.reason(err)}`, {
        cause: err,
      });
    }
    if (this.closed) {
      await client.close();
      throw new Error(`MCP server '${this.name}' was closed`);
    }
    client.onclose = () => this.lost(client);
    this.client = client;
    this.why = undefined;
    return client;
  }

  /** Why the server is gone or did not start: how its process ended and its last words, else the error. */
  private async reason(err: unknown): Promise<string> {
    const transport = this.transport;
    if (transport) {
      await transport.settled();
      if (transport.ended) {
        const words = transport.lastWords();
        return `it ${transport.ended}${words ? ` (${words})` : ""}`;
      }
    }
    return err instanceof Error ? err.message : String(err);
  }

  private async transportOf(): Promise<Transport> {
    const onOverflow = (error: McpLimitError) => {
      this.overflows++;
      this.overflow = error;
      void this.client?.close();
    };
    const server = this.server;
    if ("url" in server) {
      const { StreamableHTTPClientTransport } =
        await sdk<typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js")>("client/streamableHttp.js");
      return new StreamableHTTPClientTransport(new URL(server.url), {
        fetch: boundedFetch(this.limits, onOverflow),
        ...(server.headers && { requestInit: { headers: server.headers } }),
      });
    }
    const [{ getDefaultEnvironment }, { deserializeMessage }] = await Promise.all([
      sdk<typeof import("@modelcontextprotocol/sdk/client/stdio.js")>("client/stdio.js"),
      sdk<typeof import("@modelcontextprotocol/sdk/shared/stdio.js")>("shared/stdio.js"),
    ]);
    this.transport = new ProcessGroupTransport({
      command: server.command,
      args: server.args ?? [],
      env: { ...getDefaultEnvironment(), ...server.env },
      ...(server.cwd !== undefined && { cwd: server.cwd }),
      maxMessageBytes: this.limits.maxMessageBytes,
      closeGraceMs: this.limits.closeGraceMs,
      parse: deserializeMessage,
      onOverflow,
    });
    return this.transport;
  }

  /** The connection ended without our closing it: the server is down until it is started again. */
  private lost(client: Client): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    void this.reason(new Error("the connection closed")).then((why) => {
      this.why = why;
      this.restartLater();
    });
  }

  /** Started again without waiting for a call, so that readiness comes back by itself. */
  private restartLater(): void {
    if (this.restarts >= this.limits.maxRestarts || this.closed) return;
    const delay = Math.min(BACKOFF_MS * 2 ** this.restarts, MAX_BACKOFF_MS);
    this.timer = setTimeout(() => void this.restart().catch(() => undefined), delay);
    this.timer.unref();
  }

  private restart(): Promise<Client> {
    clearTimeout(this.timer);
    if (this.starting) return this.starting;
    if (this.client) return Promise.resolve(this.client);
    if (this.closed) return Promise.reject(new Error(`MCP server '${this.name}' was closed`));
    if (this.restarts >= this.limits.maxRestarts)
      return Promise.reject(
        new Error(
          `the server is down: it stopped ${this.restarts + 1} times in a row (maxRestarts ${this.limits.maxRestarts}); the last time ${this.why ?? "it stopped"}`,
        ),
      );
    this.restarts++;
    this.starting = this.connect().then(
      (client) => {
        this.starting = undefined;
        return client;
      },
      (err: Error) => {
        this.starting = undefined;
        this.why = err.message;
        this.restartLater();
        throw err;
      },
    );
    return this.starting;
  }

  /** Calls a tool, starting the server again first if it died. */
  async call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallResult> {
    const client = this.client ?? (await this.restart());
    const overflows = this.overflows;
    try {
      const result = (await client.callTool(
        { name: tool, arguments: args },
        undefined,
        signal ? { signal } : undefined,
      )) as CallResult;
      this.restarts = 0;
      return result;
    } catch (err) {
      if (this.overflows !== overflows && this.overflow) throw this.overflow;
      if (this.client !== client && this.transport?.ended) throw new Error(await this.reason(err), { cause: err });
      throw err;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.starting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    await client?.close();
  }
}
