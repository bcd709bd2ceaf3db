/** An app's fetch handler on a Node HTTP server, under the slow clients' limits (connection-limits.ts). */
import type { Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type Http2Bindings, type HttpBindings, type ServerType } from "@hono/node-server";
import {
  DEFAULT_CONNECTION_LIMITS,
  limitConnections,
  timeoutOptions,
  type ConnectionLimits,
} from "./connection-limits.js";

type FetchHandler = (req: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;

/** Resolves once it accepts connections, with the port bound and `http://HOST:PORT`. */
export async function listenNode(
  fetch: FetchHandler,
  host: string,
  port: number,
  connections: Partial<ConnectionLimits> = {},
): Promise<{ server: ServerType; port: number; url: string }> {
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...connections };
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch, hostname: host, port, serverOptions: timeoutOptions(limits) }, () => resolve(s));
    limitConnections(s as HttpServer, limits);
    s.once("error", reject);
  });
  const bound = (server.address() as AddressInfo).port;
  return { server, port: bound, url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}` };
}
