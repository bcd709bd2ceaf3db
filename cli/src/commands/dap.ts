import type { Command } from "commander";
import type { DapFlags } from "../actions/dap.js";

export function registerDap(program: Command): void {
  program
    .command("dap")
    .summary("a Debug Adapter Protocol server for VS Code and other editors")
    .description(
      "a Debug Adapter Protocol server for VS Code and other DAP clients: breakpoints on lines of the agent's .ts file, the function stack as frames, memory scopes as variables (docs/debugging.md); stdio by default",
    )
    .option(
      "--port <port>",
      "serve DAP clients over TCP on this port instead (0: any free port); prints the port and the secret each launch configuration must give",
    )
    .option("--host <address>", "the address to listen on with --port (default 127.0.0.1: this machine only)")
    .action(async (flags: DapFlags) => (await import("../actions/dap.js")).dapCommand(flags));
}
