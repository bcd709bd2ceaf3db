import type { Command } from "commander";

// Placeholders until import/export are implemented.
export function registerImport(program: Command): void {
  program.command("import").description("(not implemented yet)").action(() => {
    process.stderr.write("autograms import: not implemented yet\n");
    process.exitCode = 1;
  });
}
export function registerExport(program: Command): void {
  program.command("export").description("(not implemented yet)").action(() => {
    process.stderr.write("autograms export: not implemented yet\n");
    process.exitCode = 1;
  });
}
