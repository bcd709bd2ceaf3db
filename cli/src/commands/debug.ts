import type { Command } from "commander";

// Placeholder until the 'debug' command is implemented.
export function registerDebug(program: Command): void {
  program.command("debug").description("(not implemented yet)").action(() => {
    process.stderr.write("autograms debug: not implemented yet\n");
    process.exitCode = 1;
  });
}
