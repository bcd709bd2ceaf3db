// `autograms mcp`: the agent as an MCP server (mcp-server/agent-server.ts), over stdio or
// Streamable HTTP, until stdin closes or a signal comes.
import { budgetsOf } from "@autograms/server";
import { openStore } from "@autograms/store";
import { CliError } from "../agent-loading/cli-error.js";
import { closeAtEnd } from "../agent-loading/command-scope.js";
import type { ModelFlags } from "../agent-loading/model-options.js";
import { openAgent } from "../agent-loading/open-agent.js";
import { reporting } from "../agent-loading/report-error.js";
import { storeUrl } from "../conversation/store-url.js";
import { AgentMcpServer, loadSdk } from "../mcp-server/agent-server.js";
import { tokenOf, type TokenFlags } from "../serving/token-flags.js";

export interface McpFlags extends ModelFlags, TokenFlags {
  http?: string;
  store?: string;
  allowedHost: string[];
  maxMessageMb: number;
  callTimeoutMs: number;
  turnTimeMs?: number;
  turnMemoryMb?: number;
}

export function mcpCommand(file: string, flags: McpFlags): Promise<void> {
  return reporting("mcp", (onLoaded) => serveMcp(file, flags, onLoaded), { traced: true });
}

async function serveMcp(
  file: string,
  flags: McpFlags,
  onLoaded: Parameters<typeof openAgent>[2]["onLoaded"],
): Promise<void> {
  if (flags.http !== undefined && (!/^\d{1,5}$/.test(flags.http) || Number(flags.http) > 65535))
    throw new CliError(`--http takes a port number (0 to 65535), not '${flags.http}'`, 2);
  if (flags.http === undefined && (flags.token ?? flags.tokenFile ?? flags.allowedHost[0]) !== undefined)
    throw new CliError(
      "--token, --token-file and --allowed-host are for --http: over stdio the one client is the process that started this one",
      2,
    );
  const token = flags.http === undefined ? undefined : tokenOf(flags);
  const budgets = budgetsOf(
    {
      ...(flags.turnTimeMs === undefined ? {} : { timeMs: flags.turnTimeMs }),
      ...(flags.turnMemoryMb === undefined ? {} : { memoryMb: flags.turnMemoryMb }),
    },
    "budgets",
  );
  const maxBytes = flags.maxMessageMb * 1024 * 1024;
  const { agent } = await openAgent(file, flags, { modelRequired: false, ...(onLoaded ? { onLoaded } : {}) });
  const store = await openStore(storeUrl(flags.store));
  closeAtEnd(() => store.close());
  const mcp = new AgentMcpServer(agent, store, { budgets, timeoutMs: flags.callTimeoutMs }, await loadSdk());
  try {
    if (flags.http === undefined) await mcp.overStdio(maxBytes);
    else {
      let endpoint;
      try {
        endpoint = await mcp.overHttp({
          port: Number(flags.http),
          ...(token !== undefined && { token }),
          allowedHosts: flags.allowedHost,
          maxBodyBytes: maxBytes,
        });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "EADDRINUSE")
          throw new CliError(`port ${flags.http} on 127.0.0.1 is in use: choose another with --http (0: any free one)`);
        throw err;
      }
      process.stdout.write(`MCP server on ${endpoint.url}\n`);
      process.stderr.write(
        `(agent ${agent.graph.agent}${token === undefined ? "" : ", bearer token required"}; Ctrl-C stops)\n`,
      );
      await signalled();
      await endpoint.close();
    }
  } finally {
    await mcp.stop();
  }
}

/** Until SIGINT or SIGTERM. */
function signalled(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop).off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop).on("SIGTERM", stop);
  });
}
