import type { Command } from "commander";

// Placeholder until the 'simulate' command is implemented.
export function registerSimulate(program: Command): void {
  program.command("simulate").description("(not implemented yet)").action(() => {
    process.stderr.write("autograms simulate: not implemented yet\n");
    process.exitCode = 1;
  });
}
