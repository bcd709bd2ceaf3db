/**
 * Slow clients cannot use up the process: a client that opens connections and drips its headers
 * (slowloris) is cut after `headersMs`, one that drips a body after `requestMs`, and one client
 * address holds at most `idlePerClient` connections that have no request in progress (dripping
 * headers, or idle between requests): a new connection closes its oldest such one. So new clients
 * are answered while old ones drip, and file descriptors go to requests, not to waiting sockets.
 * At most `perClient` connections per address in all (requests in progress included, such as
 * event streams): a connection beyond that, with none idle to close, is refused.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

export interface ConnectionLimits {
  /** Time to receive a request's headers (ms, default 10,000). */
  headersMs: number;
  /** Time to receive a whole request, body included (ms, default 30,000); the answer (a stream) may take longer. */
  requestMs: number;
  /** Connections of one client address with no request in progress (default 256). */
  idlePerClient: number;
  /** Connections of one client address in all (default 1,000). */
  perClient: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersMs: 10_000,
  requestMs: 30_000,
  // A client's pool of keep-alive connections (a proxy, a backend) may hold many between its
  // requests, and one closed here may be the one it is about to reuse: bound them, not tightly.
  idlePerClient: 256,
  perClient: 1000,
};

/** The Node HTTP server options that bound the time of a request's arrival. */
export function timeoutOptions(limits: ConnectionLimits) {
  // Node checks the two timeouts every connectionsCheckingInterval (30 s by default).
  return {
    headersTimeout: limits.headersMs,
    requestTimeout: limits.requestMs,
    connectionsCheckingInterval: Math.min(1000, limits.headersMs),
  };
}

/** Counts each client address's connections on `server` and closes or refuses those over the limits. */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  /** By address: its open connections, oldest first; a connection is busy while a request of it is answered. */
  const clients = new Map<string, Map<Socket, { busy: number }>>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    let open = clients.get(address);
    if (!open) clients.set(address, (open = new Map()));
    const idle = [...open].filter(([, s]) => s.busy === 0).map(([sock]) => sock);
    if (idle.length >= limits.idlePerClient || open.size >= limits.perClient) {
      const oldest = idle[0];
      if (oldest) {
        open.delete(oldest);
        oldest.destroy();
      } else {
        socket.destroy();
        return;
      }
    }
    const state = { busy: 0 };
    open.set(socket, state);
    socket.once("close", () => {
      open.delete(socket);
      if (open.size === 0 && clients.get(address) === open) clients.delete(address);
    });
  });
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const state = clients.get(req.socket.remoteAddress ?? "")?.get(req.socket);
    if (!state) return;
    state.busy++;
    res.once("close", () => state.busy--);
  });
}
