import { resolve } from "node:path";
import { toSvg } from "@autograms/compiler";
import type { Graph } from "@autograms/runtime";
import { openStore, type BusyPolicy } from "@autograms/store";
import { listen } from "@autograms/server";
import { CliError } from "../agent-loading/cli-error.js";
import type { ModelFlags } from "../agent-loading/model-options.js";
import { openAgent } from "../agent-loading/open-agent.js";
import { reporting } from "../agent-loading/report-error.js";
import { storeUrl } from "../conversation/store-url.js";
import { vscodeLink } from "../debugger/graph-page.js";

export interface ServeFlags extends ModelFlags {
  store?: string;
  port: string;
  host: string;
  token?: string;
  busy?: BusyPolicy;
}

/** The playground's picture of the graph, its nodes opening their lines in VS Code (the graph names its source relative to the working directory). */
function drawGraph(graph: Graph): string {
  const file = graph.source?.file;
  return toSvg(graph, file === undefined ? {} : { sourceLink: vscodeLink(resolve(file)) });
}

/** Addresses only this machine reaches: serving there needs no token. */
const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|\[::1\]|localhost)$/i;

export function serveCommand(file: string, flags: ServeFlags): Promise<void> {
  return reporting("serve", (onLoaded) => serve(file, flags, onLoaded));
}

async function serve(file: string, flags: ServeFlags, onLoaded: Parameters<typeof openAgent>[2]["onLoaded"]): Promise<void> {
  if (!/^\d{1,5}$/.test(flags.port) || Number(flags.port) > 65535) throw new CliError(`--port takes a port number (0 to 65535), not '${flags.port}'`, 2);
  const token = flags.token ?? (process.env.AUTOGRAMS_TOKEN || undefined);
  if (token !== undefined && token.trim() === "") throw new CliError("--token: the token is empty", 2);
  if (!LOOPBACK.test(flags.host) && token === undefined) {
    throw new CliError(`--host ${flags.host} lets other machines in: give --token (or AUTOGRAMS_TOKEN) so that every request must carry it`, 2);
  }
  // Clients watch the replies as they are written: the model streams them (the offline model word by word).
  const { agent } = await openAgent(file, { ...flags, stream: true }, { modelRequired: true, ...(onLoaded ? { onLoaded } : {}) });
  const store = await openStore(storeUrl(flags.store));
  let server;
  try {
    server = await listen({
      agent, store, host: flags.host.replace(/^\[(.*)\]$/, "$1"), port: Number(flags.port), ...(token ? { token } : {}), ...(flags.busy ? { policy: flags.busy } : {}),
      playground: { drawGraph },
    });
  } catch (err) {
    await store.close();
    const e = err as NodeJS.ErrnoException;
    if (e.code === "EADDRINUSE") throw new CliError(`port ${flags.port} on ${flags.host} is in use: choose another with --port (0: any free one)`);
    if (e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND") throw new CliError(`cannot listen on ${flags.host}: no such address on this machine`);
    throw err;
  }
  process.stdout.write(`listening on ${server.url}\n`);
  process.stderr.write(`(agent ${agent.graph.agent}, threads in ${store.where}${token ? ", bearer token required" : ""}; Ctrl-C stops)\n`);
  // Runs in progress end (their threads released, their ends stored) before the process exits.
  const running = server;
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop).off("SIGTERM", stop);
      process.stderr.write("(stopping)\n");
      void running.close().finally(() => store.close()).finally(resolve);
    };
    process.on("SIGINT", stop).on("SIGTERM", stop);
  });
}
