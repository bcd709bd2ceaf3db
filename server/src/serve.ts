/** The app on a Node HTTP server: `listen` resolves once it accepts connections. */
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { createApp, type AppOptions, type AutogramsApp } from "./app.js";

export interface ListenOptions extends AppOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 3000; 0 picks a free port. */
  port?: number;
}

export interface RunningServer extends AutogramsApp {
  /** `http://HOST:PORT`, with the port actually bound. */
  url: string;
  port: number;
  server: ServerType;
  /** Stops accepting connections, ends the runs in progress (their threads released) and closes the connections left. The store stays open. */
  close(): Promise<void>;
}

export async function listen(options: ListenOptions): Promise<RunningServer> {
  const made = createApp(options);
  const host = options.host ?? "127.0.0.1";
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: made.app.fetch, hostname: host, port: options.port ?? 3000 }, () => resolve(s));
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    ...made, server, port, url: `http://${shown}:${port}`,
    async close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      await made.close();
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await closed;
    },
  };
}
