import type { Command } from "commander";
import type { ExportFlags, ImportFlags } from "../actions/spreadsheet.js";

export function registerImport(program: Command): void {
  program
    .command("import")
    .summary("read an original AutoGRAMS spreadsheet (CSV) into a graph")
    .description(
      "read a spreadsheet in the original AutoGRAMS CSV format (one row per node) into a graph JSON file; see docs/spreadsheets.md",
    )
    .argument("<file.csv>", "the spreadsheet, saved as CSV")
    .option("-o, --out <file>", "where to write the graph ('-' for stdout); default: <name>.graph.json beside the CSV")
    .option("--agent <name>", "the graph's agent name (default: from the file name)")
    .option(
      "--tools <module>",
      "a module whose exported functions the sheet's code may call, as the graph's tools (repeatable; read, never run)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .action(async (file: string, flags: ImportFlags) =>
      (await import("../actions/spreadsheet.js")).importCommand(file, flags),
    );
}

export function registerExport(program: Command): void {
  program
    .command("export")
    .summary("write a graph as an original AutoGRAMS spreadsheet (CSV)")
    .description(
      "write a graph as a spreadsheet in the original AutoGRAMS CSV format (one row per node), with only the original's columns; a graph the original's format cannot hold is an error naming each node (--format autograms writes every field, for autograms import); says on stderr what the sheet leaves out",
    )
    .argument("<file>", "a graph (.json) or an agent (.ts, compiled first)")
    .option("-o, --out <file>", "where to write the CSV ('-' for stdout); default: <name>.csv beside the input")
    .option(
      "--format <format>",
      "original (the original's columns, the default) or autograms (every field, code in the evaluator's language)",
      "original",
    )
    .action(async (file: string, flags: ExportFlags) =>
      (await import("../actions/spreadsheet.js")).exportCommand(file, flags),
    );
}
