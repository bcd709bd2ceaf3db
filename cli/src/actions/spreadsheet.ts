import { readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { exportSpreadsheet, formatDiagnostics, graphToJson, importSpreadsheet, spreadsheetExportLosses } from "@autograms/compiler";
import { loadGraph } from "../agent-loading/read-graph.js";
import { writeOutput } from "../write-output.js";

export interface ImportFlags {
  out?: string;
  agent?: string;
}

export interface ExportFlags {
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

export async function importCommand(file: string, flags: ImportFlags): Promise<void> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message;
    process.stderr.write(`autograms import: cannot read '${file}': ${reason}\n`);
    process.exitCode = 1;
    return;
  }
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
}

export async function exportCommand(file: string, flags: ExportFlags): Promise<void> {
  const loaded = await loadGraph("export", file);
  if (!loaded || !loaded.valid) {
    process.exitCode = 1;
    return;
  }
  for (const loss of spreadsheetExportLosses(loaded.graph)) process.stderr.write(`autograms export: warning: the sheet leaves out ${loss}\n`);
  writeOutput(exportSpreadsheet(loaded.graph), flags.out ?? beside(file, ".csv"), `${loaded.graph.nodes.length} rows`);
}
