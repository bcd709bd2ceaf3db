/** The app on a Node HTTP server: `listen` resolves once it accepts connections. */
import { ServerResponse, type Server as HttpServer } from "node:http";
import type { Http2Bindings, HttpBindings, ServerType } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { createApp, type AppOptions } from "./app.js";
import type { AutogramsApp } from "./context.js";
import { isLoopback, loopbackHosts } from "./http/browser-guards.js";
import { checkListenOptions } from "./app-options.js";
import { sseChunksOf } from "./http/sse.js";
import { writeSseToNode } from "./http/sse-node.js";
import type { ConnectionLimits } from "./http/connection-limits.js";
import { listenNode } from "./http/node-listen.js";

/** How long closing waits for the last frames of the streams in progress before it cuts their connections. */
const CLOSE_WAIT_MS = 1000;

export interface ListenOptions extends AppOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Slow clients' limits: header and request time, connections per client address. */
  connections?: Partial<ConnectionLimits>;
}

export interface RunningServer extends AutogramsApp {
  /** `http://HOST:PORT`, with the port actually bound. */
  url: string;
  port: number;
  server: ServerType;
  /** Stops accepting connections, ends the runs in progress (their threads released) and closes the connections left. The store stays open. */
  close(): Promise<void>;
}

/**
 * Serves the agent on `host:port`. An address other machines reach needs a token; on a loopback
 * one, only requests naming this machine (`Host`) are answered, which keeps rebound web pages out.
 */
export async function listen(options: ListenOptions): Promise<RunningServer> {
  checkListenOptions(options);
  const host = options.host ?? "127.0.0.1";
  if (!isLoopback(host) && options.token === undefined) {
    throw new TypeError(`host ${host} lets other machines in: give a token, so that every request must carry it`);
  }
  const more = options.allowedHosts ?? [];
  const allowedHosts = isLoopback(host) ? loopbackHosts(host, more) : more.length > 0 ? [host, ...more] : undefined;
  const made = createApp({ ...options, ...(allowedHosts ? { allowedHosts } : {}) });
  try {
    await made.ready();
  } catch (err) {
    await made.close();
    throw err;
  }
  let bound: Awaited<ReturnType<typeof listenNode>>;
  try {
    bound = await listenNode(writingStreams(made.app.fetch), host, options.port ?? 3000, options.connections);
  } catch (err) {
    // The port in use (or the address not this machine's): the app's worker threads would keep
    // the process up.
    await made.close();
    throw err;
  }
  const { server, port, url } = bound;
  return {
    ...made,
    server,
    port,
    url,
    async close() {
      // Streams of other processes' runs end now; those of this process's runs end with them.
      made.ctx.lifecycle.drain();
      const closed = new Promise<void>((r) => server.close(() => r()));
      await made.close();
      // The streams write their last frames and end (a cut would lose them); a connection still
      // open a moment later (a keep-alive one between requests, a slow reader) is cut.
      const http = server as HttpServer;
      http.closeIdleConnections();
      const cut = setTimeout(() => http.closeAllConnections(), CLOSE_WAIT_MS);
      await closed;
      clearTimeout(cut);
    },
  };
}

/**
 * The app's answers as @hono/node-server writes them, but for its event streams, which are written
 * to the connection here (http/sse-node.ts) with the headers the app's middleware gave them, and
 * answered with RESPONSE_ALREADY_SENT, the server's own way of saying so ("Direct response from
 * Node.js API" in its README).
 */
function writingStreams(
  fetch: (req: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>,
): (req: Request, env: HttpBindings | Http2Bindings) => Promise<Response> {
  return async (req, env) => {
    const res = await fetch(req, env);
    if (
      !(env.outgoing instanceof ServerResponse) ||
      req.method === "HEAD" ||
      !res.headers.get("content-type")?.startsWith("text/event-stream")
    )
      return res;
    const chunks = sseChunksOf(res.body);
    if (chunks === undefined) return res;
    // Node takes the headers as one flat list of names and values, each Set-Cookie its own pair
    // as Headers' iteration gives them.
    writeSseToNode(chunks, env.outgoing, res.status, [...res.headers].flat());
    return RESPONSE_ALREADY_SENT;
  };
}

// A module loaded after a server has replaced the global `Response` (another `serve` in this
// process first) makes this answer one of @hono/node-server's lightweight responses, whose headers
// it would write to the connection again; reading `bodyUsed` makes it a full one, which it reads
// the header from and writes nothing.
void RESPONSE_ALREADY_SENT.bodyUsed;
