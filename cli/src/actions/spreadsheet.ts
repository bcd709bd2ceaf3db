import { basename, dirname, join, relative, resolve } from "node:path";
import {
  exportSpreadsheet,
  graphToJson,
  importSpreadsheet,
  moduleTools,
  spreadsheetExportLosses,
  SpreadsheetExportError,
  type SpreadsheetFormat,
} from "@autograms/compiler";
import { RUNTIME_TOOLS, type ToolInfo } from "@autograms/runtime";
import { CliError } from "../agent-loading/cli-error.js";
import { errorsIn, printDiagnostics } from "../agent-loading/compile-agent.js";
import { readText } from "../agent-loading/files.js";
import { loadAgentGraph } from "../agent-loading/load-graph.js";
import { reporting } from "../agent-loading/report-error.js";
import { writeOutput } from "../write-output.js";

export interface ImportFlags {
  out?: string;
  agent?: string;
  tools?: string[];
}

export interface ExportFlags {
  out?: string;
  format?: string;
}

const FORMATS: readonly SpreadsheetFormat[] = ["original", "autograms"];

/** `recruiter_agent-v2.csv` → `RecruiterAgentV2`: a class-like name for the imported graph. */
function agentName(file: string): string {
  const words = basename(file)
    .replace(/\.[^.]*$/, "")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const name = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
  return /^[A-Za-z]/.test(name) ? name : `Agent${name}`;
}

/** The file beside `file` with its extension (and a `.graph` before it) replaced by `ext`. */
function beside(file: string, ext: string): string {
  return join(dirname(file), basename(file).replace(/(\.graph)?\.[^.]*$/, "") + ext);
}

/**
 * `--tools MODULE`: each module's exports as tools, under the specifier the graph keeps (relative
 * to the sheet, whose folder a graph's tool modules are found from, as an agent's are from its own).
 */
function sheetTools(sheet: string, modules: string[]): Record<string, ToolInfo> {
  const tools: Record<string, ToolInfo> = {};
  for (const module of modules) {
    // The runtime's own callable functions (tryTool, the ReAct helpers), as a compiled agent has them.
    if (module === "@autograms/runtime") {
      for (const name of RUNTIME_TOOLS) tools[name] = { module, export: name };
      continue;
    }
    const path = resolve(module);
    const relativePath = relative(dirname(resolve(sheet)), path)
      .split("\\")
      .join("/");
    const specifier = relativePath.startsWith(".") ? relativePath : `./${relativePath}`;
    const found = moduleTools(readText(module, "the tools module "), path, specifier);
    if (Object.keys(found).length === 0)
      throw new CliError(`--tools ${module}: the module exports no functions to call as tools`, 2);
    Object.assign(tools, found);
  }
  return tools;
}

export function importCommand(file: string, flags: ImportFlags): Promise<void> {
  return reporting("import", async () => {
    const text = readText(file);
    const fileName = relative(process.cwd(), resolve(file)).split("\\").join("/");
    const tools = sheetTools(file, flags.tools ?? []);
    const { graph, diagnostics } = importSpreadsheet(text, { fileName, agent: flags.agent ?? agentName(file), tools });
    printDiagnostics(diagnostics, text);
    if (!graph) throw new CliError(errorsIn(diagnostics, fileName));
    writeOutput(graphToJson(graph), flags.out ?? beside(file, ".graph.json"), `${graph.nodes.length} nodes`);
  });
}

export function exportCommand(file: string, flags: ExportFlags): Promise<void> {
  return reporting("export", async () => {
    const format = (flags.format ?? "original") as SpreadsheetFormat;
    if (!FORMATS.includes(format))
      throw new CliError(`--format must be ${FORMATS.join(" or ")}, not '${flags.format}'`, 2);
    const { graph } = await loadAgentGraph(file);
    let sheet: string;
    try {
      sheet = exportSpreadsheet(graph, { format });
    } catch (error) {
      if (!(error instanceof SpreadsheetExportError)) throw error;
      throw new CliError(`${error.message}\n(--format autograms writes every field, for autograms import)`);
    }
    for (const loss of spreadsheetExportLosses(graph))
      process.stderr.write(`autograms export: warning: the sheet leaves out ${loss}\n`);
    writeOutput(sheet, flags.out ?? beside(file, ".csv"), `${graph.nodes.length} rows`);
  });
}
