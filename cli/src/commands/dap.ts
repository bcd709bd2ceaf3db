import type { Command } from "commander";

interface DapFlags {
  port?: string;
}

export function registerDap(program: Command): void {
  program
    .command("dap")
    .description("a Debug Adapter Protocol server for VS Code and other DAP clients: breakpoints on lines of the agent's .ts file, the function stack as frames, memory scopes as variables (docs/debugging.md); stdio by default")
    .option("--port <port>", "serve DAP clients over TCP on this port of 127.0.0.1 instead (0: any free port, printed on stderr)")
    .action(async (flags: DapFlags) => {
      const { AgentDebugAdapter } = await import("../debugger/dap/adapter.js");
      const { openLaunch } = await import("../debugger/dap/open-launch.js");
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
      const { createServer } = await import("node:net");
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
    });
}
