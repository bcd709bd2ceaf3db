// One connection to one MCP server through @modelcontextprotocol/sdk, an optional peer
// dependency loaded only here.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { McpServerConfig } from "./config.js";

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

export async function connect(name: string, server: McpServerConfig): Promise<Client> {
  const { Client } = await sdk<typeof import("@modelcontextprotocol/sdk/client/index.js")>("client/index.js");
  const client = new Client({ name: "autograms", version: "0.1.0" });
  let transport;
  if ("url" in server) {
    const { StreamableHTTPClientTransport } =
      await sdk<typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js")>("client/streamableHttp.js");
    transport = new StreamableHTTPClientTransport(
      new URL(server.url),
      server.headers ? { requestInit: { headers: server.headers } } : undefined,
    );
  } else {
    const { StdioClientTransport, getDefaultEnvironment } =
      await sdk<typeof import("@modelcontextprotocol/sdk/client/stdio.js")>("client/stdio.js");
    transport = new StdioClientTransport({
      command: server.command,
      args: server.args ?? [],
      env: { ...getDefaultEnvironment(), ...server.env },
      ...(server.cwd !== undefined && { cwd: server.cwd }),
    });
  }
  try {
    await client.connect(transport);
  } catch (err) {
    const where = "url" in server ? server.url : [server.command, ...(server.args ?? [])].join(" ");
    throw new Error(
      `MCP server '${name}' (${where}) could not be reached: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  return client;
}
