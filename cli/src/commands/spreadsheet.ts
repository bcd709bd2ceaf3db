import type { Command } from "commander";
import { readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { loadGraph, writeOutput } from "./graph.js";

interface ImportFlags {
  out?: string;
  agent?: string;
}

interface ExportFlags {
  out?: string;
}

/** `recruiter_agent-v2.csv` → `RecruiterAgentV2`: a class-like name for the imported graph. */
function agentName(file: string): string {
  const words = basename(file).replace(/\.[^.]*$/, "").split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
  return /^[A-Za-z]/.test(name) ? name : `Agent${name}`;
}

/** The file beside `file` with its extension (and a `.graph` before it) replaced by `ext`. */
function beside(file: string, ext: string): string {
  return join(dirname(file), basename(file).replace(/(\.graph)?\.[^.]*$/, "") + ext);
}

export function registerImport(program: Command): void {
  program
    .command("import")
    .description("read a spreadsheet in the original AutoGRAMS CSV format (one row per node) into a graph JSON file; see docs/spreadsheets.md")
    .argument("<file.csv>", "the spreadsheet, saved as CSV")
    .option("-o, --out <file>", "where to write the graph ('-' for stdout); default: <name>.graph.json beside the CSV")
    .option("--agent <name>", "the graph's agent name (default: from the file name)")
    .action(async (file: string, flags: ImportFlags) => {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (err) {
        const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message;
        process.stderr.write(`autograms import: cannot read '${file}': ${reason}\n`);
        process.exitCode = 1;
        return;
      }
      const { importSpreadsheet, formatDiagnostics, graphToJson } = await import("@autograms/compiler");
      const fileName = relative(process.cwd(), resolve(file)).split("\\").join("/");
      const { graph, diagnostics } = importSpreadsheet(text, { fileName, agent: flags.agent ?? agentName(file) });
      if (diagnostics.length) process.stderr.write(formatDiagnostics(diagnostics, text, { color: process.stderr.isTTY }) + "\n");
      if (!graph) {
        const errors = diagnostics.filter((d) => d.severity === "error").length;
        process.stderr.write(`${errors} error${errors === 1 ? "" : "s"} in ${fileName}\n`);
        process.exitCode = 1;
        return;
      }
      writeOutput(graphToJson(graph), flags.out ?? beside(file, ".graph.json"), `${graph.nodes.length} nodes`);
    });
}

export function registerExport(program: Command): void {
  program
    .command("export")
    .description("write a graph as a spreadsheet in the original AutoGRAMS CSV format (one row per node); says on stderr what the sheet cannot hold")
    .argument("<file>", "a graph (.json) or an agent (.ts, compiled first)")
    .option("-o, --out <file>", "where to write the CSV ('-' for stdout); default: <name>.csv beside the input")
    .action(async (file: string, flags: ExportFlags) => {
      const loaded = await loadGraph("export", file);
      if (!loaded || !loaded.valid) {
        process.exitCode = 1;
        return;
      }
      const { exportSpreadsheet, spreadsheetExportLosses } = await import("@autograms/compiler");
      for (const loss of spreadsheetExportLosses(loaded.graph)) process.stderr.write(`autograms export: warning: the sheet leaves out ${loss}\n`);
      writeOutput(exportSpreadsheet(loaded.graph), flags.out ?? beside(file, ".csv"), `${loaded.graph.nodes.length} rows`);
    });
}
