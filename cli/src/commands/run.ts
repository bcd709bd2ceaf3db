import type { Command } from "commander";

// Placeholder until the 'run' command is implemented.
export function registerRun(program: Command): void {
  program.command("run").description("(not implemented yet)").action(() => {
    process.stderr.write("autograms run: not implemented yet\n");
    process.exitCode = 1;
  });
}
