import type { Command } from "commander";

// Placeholder until the 'chat' command is implemented.
export function registerChat(program: Command): void {
  program.command("chat").description("(not implemented yet)").action(() => {
    process.stderr.write("autograms chat: not implemented yet\n");
    process.exitCode = 1;
  });
}
