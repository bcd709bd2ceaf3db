import { createServer } from "node:net";
import { AgentDebugAdapter } from "../debugger/dap/adapter.js";
import { openLaunch } from "../debugger/dap/open-launch.js";

export interface DapFlags {
  port?: string;
}

export async function dapCommand(flags: DapFlags): Promise<void> {
  if (flags.port === undefined) {
    const adapter = new AgentDebugAdapter(openLaunch);
    process.on("SIGTERM", () => adapter.shutdown());
    adapter.start(process.stdin, process.stdout);
    return;
  }
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`autograms dap: --port takes a port number, not '${flags.port}'\n`);
    process.exitCode = 2;
    return;
  }
  const server = createServer((socket) => {
    const adapter = new AgentDebugAdapter(openLaunch);
    adapter.setRunAsServer(true);
    adapter.start(socket, socket);
  });
  server.on("error", (err) => {
    process.stderr.write(`autograms dap: ${err.message}\n`);
    process.exitCode = 1;
  });
  server.listen(port, "127.0.0.1", () => {
    const address = server.address();
    process.stderr.write(`autograms dap: listening on 127.0.0.1:${typeof address === "object" && address ? address.port : port}\n`);
  });
}
