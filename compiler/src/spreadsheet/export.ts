/**
 * A graph → a CSV spreadsheet, in one of two formats:
 * - `original`: exactly the original's columns and actions, which its reader accepts; code rows
 *   are `python_function` rows with `x=expr`. A graph that cannot be said so (code that is not
 *   also the same Python, fields the original lacks, ...) is an error naming each node.
 * - `autograms`: every node field, for importSpreadsheet alone. Code rows keep the action
 *   `code`, their assignment in an `assign` column: their cells are the evaluator's language,
 *   which the importer then neither splits nor translates from Python.
 * In both, function entries become callable nodes `f(a, b)` and `assign` the `x=` prefix.
 */
import type { Action, Graph, GraphNode } from "@autograms/graph";
import { writeCsv } from "./csv-text.js";
import { exportColumns, LETTERED, NODE_NAME_FIELDS, type FieldColumn, type LetteredColumn } from "./columns.js";
import { writeInstruction } from "./cells.js";
import { originalFormatProblems, type ExportProblem } from "./original-format.js";
import { asTheOriginalWrote } from "./python-fields.js";

export type SpreadsheetFormat = "original" | "autograms";

export interface ExportOptions {
  /** `original` (the default): the original's columns only; `autograms`: every field. */
  format?: SpreadsheetFormat;
}

/** A graph the original's format cannot hold: one problem per node and reason. */
export class SpreadsheetExportError extends Error {
  constructor(readonly problems: ExportProblem[]) {
    super(
      `the graph cannot be written in the original's spreadsheet format:\n${problems.map((p) => `  node '${p.node}': ${p.message}`).join("\n")}`,
    );
    this.name = "SpreadsheetExportError";
  }
}

/** Entry node name → the callable name the original gives it (`f(a,b)` in the name column, `f()` as a target). */
function callableNames(graph: Graph): { definition: Map<string, string>; target: Map<string, string> } {
  const definition = new Map<string, string>();
  const target = new Map<string, string>();
  for (const [fname, info] of Object.entries(graph.functions)) {
    definition.set(info.entry, `${fname}(${info.params.join(",")})`);
    target.set(info.entry, `${fname}()`);
  }
  return { definition, target };
}

function cellText(
  node: GraphNode,
  column: FieldColumn | LetteredColumn,
  names: ReturnType<typeof callableNames>,
  format: SpreadsheetFormat,
): string {
  if (column.kind === "lettered") return node[column.field]?.[column.index] ?? "";
  const original = format === "original";
  switch (column.field) {
    case "name":
      return names.definition.get(node.name) ?? node.name;
    case "action":
      return original && node.action === "code" ? "python_function" : node.action;
    case "instruction":
      // The original's code row: `x=expr` (the code reads the same in Python: originalFormatProblems).
      if (original && node.action === "code")
        return node.assign === undefined ? (node.instruction ?? "") : `${node.assign}=${node.instruction ?? ""}`;
      // Code is written as it is: its row's action says it is the evaluator's language, not Python.
      if (node.action === "code") return node.instruction ?? "";
      return node.instruction === undefined && node.assign === undefined
        ? ""
        : writeInstruction(node.action as Action, node.instruction ?? "", node.assign);
    case "assign":
      return node.action === "code" ? (node.assign ?? "") : "";
  }
  const value = (node as unknown as Record<string, unknown>)[column.field];
  if (value === undefined) return "";
  if (Array.isArray(value)) {
    const renamed = NODE_NAME_FIELDS.has(column.field) ? value.map((t: string) => names.target.get(t) ?? t) : value;
    return renamed.join(",");
  }
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** The graph as a spreadsheet; throws SpreadsheetExportError when the format cannot hold it. */
export function exportSpreadsheet(graph: Graph, options: ExportOptions = {}): string {
  const format = options.format ?? "original";
  if (format === "original") {
    const problems = originalFormatProblems(graph);
    if (problems.length) throw new SpreadsheetExportError(problems);
  }
  const names = callableNames(graph);
  const used = new Set(graph.nodes.flatMap((n) => Object.keys(n).filter((k) => k !== "assign" || n.action === "code")));
  // The assign column, even empty, marks a sheet as written in the evaluator's language, so its
  // code, conditions and arguments are read as written (never as the original's Python). The
  // original's format has no such column: its code reads the same as Python.
  const always = new Set([
    "name",
    "action",
    "transitions",
    "instruction",
    ...(format === "original" ? [] : ["assign"]),
  ]);
  if (format === "original") {
    used.delete("assign");
    // The Python it keeps is written in the code cells themselves (asTheOriginalWrote).
    used.delete("python");
    // Which transitions are the code's flow only narrows what a resumed conversation depends on;
    // the original resumes nothing across edits, and its reader rejects the column.
    used.delete("implicit_transitions");
  }
  const count = (field: LetteredColumn["field"]) => Math.max(0, ...graph.nodes.map((n) => n[field]?.length ?? 0));
  const counts = Object.fromEntries(Object.values(LETTERED).map((field) => [field, count(field)])) as Record<
    LetteredColumn["field"],
    number
  >;
  const columns = exportColumns((f) => always.has(f) || used.has(f), counts);
  // A node imported from the original's sheet says its code as the original wrote it, where unchanged.
  const nodes = format === "original" ? graph.nodes.map(asTheOriginalWrote) : graph.nodes;
  const rows = [
    columns.map((c) => c.header),
    ...nodes.map((node) => columns.map((c) => cellText(node, c.column, names, format))),
  ];
  return writeCsv(rows);
}

/**
 * What a spreadsheet cannot hold that changes how the agent runs, so `autograms export` can say
 * what the sheet leaves out. (Source locations are dropped too, but a sheet has no source.)
 */
export function spreadsheetExportLosses(graph: Graph): string[] {
  const losses: string[] = [];
  const globals = Object.keys(graph.globals);
  if (globals.length)
    losses.push(`the initial values of the global variables (${globals.join(", ")}): the sheet starts with none`);
  if (graph.tools && Object.keys(graph.tools).length) {
    const modules = [...new Set(Object.values(graph.tools).map((t) => t.module))];
    losses.push(
      `the tools table (${Object.keys(graph.tools).join(", ")}): give them to its import (autograms import ${modules.map((m) => `--tools ${m}`).join(" ")})`,
    );
  }
  if (graph.actions && Object.keys(graph.actions).length) {
    losses.push(
      `the custom actions (${Object.keys(graph.actions).join(", ")}) and their nodes' own fields: the original has no such actions`,
    );
  }
  const first = graph.nodes[0]?.name;
  const implicitStart = graph.nodes.some((n) => n.name === "start1") ? "start1" : first;
  if (graph.start !== undefined && graph.start !== implicitStart)
    losses.push(`the start node '${graph.start}': the sheet starts at '${implicitStart}'`);
  const renamed = Object.entries(graph.functions).filter(([fname, info]) => info.entry !== fname);
  if (renamed.length)
    losses.push(
      `entry node names ${renamed.map(([, i]) => `'${i.entry}'`).join(", ")}: a callable node is named after its function`,
    );
  const uncalled = Object.entries(graph.functions).filter(
    ([fname, info]) =>
      info.kind !== "local_function" &&
      !graph.nodes.some((n) => n.action === info.kind && n.instruction?.trimStart().startsWith(`${fname}(`)),
  );
  const optional = Object.entries(graph.functions).filter(
    ([, info]) => info.required !== undefined || info.defaults !== undefined,
  );
  if (optional.length)
    losses.push(
      `the optional parameters and defaults of ${optional.map(([f]) => f).join(", ")}: the sheet's calls must pass every argument`,
    );
  if (uncalled.length)
    losses.push(
      `the kind of functions no node calls (${uncalled.map(([f]) => f).join(", ")}): the sheet reads them as local_function`,
    );
  return losses;
}
