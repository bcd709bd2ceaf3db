/**
 * Slow clients cannot use up the process: a client that opens connections and drips its headers
 * (slowloris) is cut after `headersMs`, one that drips a body after `requestMs`, and one client
 * address holds at most `idlePerClient` connections that have no request in progress (dripping
 * headers, or idle between requests): a new connection closes its oldest such one. So new clients
 * are answered while old ones drip, and file descriptors go to requests, not to waiting sockets.
 * At most `bodiesPerClient` requests of one address may be receiving their bodies at once (each
 * may hold up to the body limit in memory): a request beyond that cuts the connection of the one
 * that has been receiving longest. At most `perClient` connections per address in all (requests
 * in progress included, such as event streams): a connection beyond that closes the oldest idle
 * one, else the oldest still receiving its body, and is refused only when every one is answering.
 * So a client that drips a thousand bodies cannot keep a new one out.
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
  /** Requests of one client address receiving their bodies at once (default 64). */
  bodiesPerClient: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersMs: 10_000,
  requestMs: 30_000,
  // A client's pool of keep-alive connections (a proxy, a backend) may hold many between its
  // requests, and one closed here may be the one it is about to reuse: bound them, not tightly.
  idlePerClient: 256,
  perClient: 1000,
  bodiesPerClient: 64,
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
  /**
   * By address: its open connections, oldest first; a connection is busy while a request of it is
   * answered, and `request` is its latest (its body still coming until `complete`).
   */
  const clients = new Map<string, Map<Socket, Connection>>();
  const cut = (open: Map<Socket, Connection>, socket: Socket) => {
    open.delete(socket);
    socket.destroy();
  };
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    let open = clients.get(address);
    if (!open) clients.set(address, (open = new Map()));
    const idle = [...open].filter(([, s]) => s.busy === 0).map(([sock]) => sock);
    if (idle.length >= limits.idlePerClient || open.size >= limits.perClient) {
      const oldest = idle[0] ?? (open.size >= limits.perClient ? receiving(open)[0] : undefined);
      if (oldest) cut(open, oldest);
      else {
        socket.destroy();
        return;
      }
    }
    const state: Connection = { busy: 0, request: null };
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
    state.request = req;
    res.once("close", () => state.busy--);
    if (req.complete) return;
    const open = clients.get(req.socket.remoteAddress ?? "")!;
    const bodies = receiving(open);
    if (bodies.length > limits.bodiesPerClient) cut(open, bodies[0]!);
  });
}

interface Connection {
  busy: number;
  request: IncomingMessage | null;
}

/** The connections whose request is still receiving its body, oldest first. */
function receiving(open: Map<Socket, Connection>): Socket[] {
  const found: Socket[] = [];
  for (const [socket, s] of open) if (s.busy > 0 && s.request && !s.request.complete) found.push(socket);
  return found;
}
