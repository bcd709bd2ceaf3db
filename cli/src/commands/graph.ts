import type { Command } from "commander";

// Placeholder until the 'graph' command is implemented.
export function registerGraph(program: Command): void {
  program.command("graph").description("(not implemented yet)").action(() => {
    process.stderr.write("autograms graph: not implemented yet\n");
    process.exitCode = 1;
  });
}
