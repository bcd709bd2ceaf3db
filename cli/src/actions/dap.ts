import { randomBytes } from "node:crypto";
import { createServer, type Socket } from "node:net";
import { PassThrough, type Readable, type Writable } from "node:stream";
import { AgentDebugAdapter } from "../debugger/dap/adapter.js";
import { DapReader, FramingError } from "../debugger/dap/framing.js";
import { evaluateIsolated } from "../debugger/dap/isolated-evaluate.js";
import { openLaunch } from "../debugger/dap/open-launch.js";

export interface DapFlags {
  port?: string;
  host?: string;
}

/** A connection that has not sent its first message by then is closed. */
const FIRST_MESSAGE_MS = 10_000;

export async function dapCommand(flags: DapFlags): Promise<void> {
  if (flags.port === undefined) {
    if (flags.host !== undefined) {
      process.stderr.write("autograms dap: --host goes with --port\n");
      process.exitCode = 2;
      return;
    }
    // On stdio the client started this process: the pipe is its own, no secret is needed.
    const adapter = serve(process.stdin, process.stdout, undefined, (why) => {
      process.stderr.write(`autograms dap: ${why}\n`);
      process.exit(1);
    });
    process.on("SIGTERM", () => adapter.shutdown());
    // The client closed the pipe: what the session opened (MCP servers) would keep the process up.
    process.stdin.on("end", () => void adapter.endSession());
    return;
  }
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`autograms dap: --port takes a port number, not '${flags.port}'\n`);
    process.exitCode = 2;
    return;
  }
  const host = flags.host ?? "127.0.0.1";
  const secret = process.env.AUTOGRAMS_DAP_SECRET || randomBytes(18).toString("base64url");
  const server = createServer((socket) => connection(socket, secret));
  server.on("error", (err) => {
    process.stderr.write(`autograms dap: ${err.message}\n`);
    process.exitCode = 1;
  });
  server.listen(port, host, () => {
    const address = server.address();
    const where =
      typeof address === "object" && address
        ? `${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`
        : `${host}:${port}`;
    const shown = process.env.AUTOGRAMS_DAP_SECRET ? "the one in AUTOGRAMS_DAP_SECRET" : JSON.stringify(secret);
    process.stderr.write(`autograms dap: listening on ${where}; a launch configuration needs "secret": ${shown}\n`);
  });
}

function connection(socket: Socket, secret: string): void {
  const peer = `${socket.remoteAddress}:${socket.remotePort}`;
  const quiet = setTimeout(() => close(`no request within ${FIRST_MESSAGE_MS / 1000} s`), FIRST_MESSAGE_MS);
  const close = (why: string) => {
    clearTimeout(quiet);
    process.stderr.write(`autograms dap: closed the connection from ${peer}: ${why}\n`);
    socket.destroy();
  };
  const adapter = serve(socket, socket, secret, close, () => clearTimeout(quiet));
  adapter.setRunAsServer(true);
  socket.on("error", () => undefined);
  socket.on("close", () => {
    clearTimeout(quiet);
    adapter.endSession();
  });
}

/**
 * One adapter on one connection. What the client sends goes through DapReader first: the adapter
 * only ever sees whole, bounded protocol messages, and the first byte that is not DAP ends the
 * connection (`refuse`).
 */
function serve(
  input: Readable,
  output: Writable,
  secret: string | undefined,
  refuse: (why: string) => void,
  heard = () => {},
): AgentDebugAdapter {
  const adapter = new AgentDebugAdapter(openLaunch, {
    secret,
    evaluate: evaluateIsolated,
    close: () => setImmediate(() => refuse("it broke the protocol's order or gave the wrong secret")),
  });
  const messages = new PassThrough();
  const reader = new DapReader((message) => {
    heard();
    const json = JSON.stringify(message);
    messages.write(`Content-Length: ${Buffer.byteLength(json, "utf8")}\r\n\r\n${json}`);
  });
  input.on("data", (chunk: Buffer) => {
    try {
      reader.push(chunk);
    } catch (err) {
      if (!(err instanceof FramingError)) throw err;
      input.pause();
      refuse(`it sent ${err.message}`);
    }
  });
  input.on("end", () => messages.end());
  adapter.start(messages, output);
  return adapter;
}
