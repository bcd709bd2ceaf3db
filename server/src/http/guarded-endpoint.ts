/**
 * One endpoint of another protocol (`autograms mcp --http`: MCP's Streamable HTTP) on a loopback
 * address, behind the guards the server's API has (guard-stack.ts: its `Host` always checked, no
 * CORS) and its bounds on slow clients (connection-limits.ts). The handler gets the request and
 * its body as parsed JSON.
 */
import type { Server as HttpServer } from "node:http";
import { Hono } from "hono";
import { z } from "zod";
import { checkToken } from "./auth.js";
import { isLoopback, loopbackHosts } from "./browser-guards.js";
import { guard, type GuardOptions } from "./guard-stack.js";
import type { ConnectionLimits } from "./connection-limits.js";
import { listenNode } from "./node-listen.js";
import { errorResponse, HttpError } from "./errors.js";
import { jsonBody } from "./request.js";

export interface EndpointOptions extends Pick<GuardOptions, "maxBodyBytes" | "bodyOption"> {
  /** The endpoint's path (`/mcp`); any other answers 404. */
  path: string;
  /** `body`: the POST body as parsed JSON (undefined for other methods). */
  handle(req: Request, body: unknown): Promise<Response>;
  /** A loopback address (default 127.0.0.1). */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** `Host` names answered besides localhost and the bound address (a proxy in front). */
  allowedHosts?: readonly string[];
  connections?: Partial<ConnectionLimits>;
}

export interface RunningEndpoint {
  /** `http://HOST:PORT` + the path. */
  url: string;
  port: number;
  /** Stops accepting connections and cuts those left. */
  close(): Promise<void>;
}

export async function listenEndpoint(options: EndpointOptions): Promise<RunningEndpoint> {
  const host = options.host ?? "127.0.0.1";
  // Other machines would need a token and TLS in front; only this one is served.
  if (!isLoopback(host)) throw new TypeError(`host ${host}: an endpoint listens on a loopback address only`);
  if (options.token !== undefined) checkToken(options.token);
  const app = new Hono();
  app.onError((err, c) => errorResponse(c, err));
  app.notFound((c) =>
    errorResponse(
      c,
      new HttpError(
        404,
        "not_found",
        `no such endpoint: ${new URL(c.req.url).pathname} (this server answers ${options.path})`,
      ),
    ),
  );
  guard(app, {
    hosts: loopbackHosts(host, options.allowedHosts),
    token: options.token,
    maxBodyBytes: options.maxBodyBytes,
    bodyOption: options.bodyOption,
  });
  app.all(options.path, async (c) =>
    options.handle(c.req.raw, c.req.method === "POST" ? await jsonBody(c, z.unknown()) : undefined),
  );
  const { server, port, url } = await listenNode(app.fetch, host, options.port, options.connections);
  return {
    url: `${url}${options.path}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        (server as HttpServer).closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
