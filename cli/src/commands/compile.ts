import type { Command } from "commander";

// Placeholder until the 'compile' command is implemented.
export function registerCompile(program: Command): void {
  program.command("compile").description("(not implemented yet)").action(() => {
    process.stderr.write("autograms compile: not implemented yet\n");
    process.exitCode = 1;
  });
}
