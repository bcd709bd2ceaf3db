/**
 * Whether a graph can be said in the original's spreadsheet format, exactly: its reader accepts
 * only its own columns (EXPECTED_FIELDS in autograms/nodes/base_node.py, lettered `a` to `e`)
 * and actions (NODE_TYPES), reads its code cells as Python, and reads any `=` in an instruction
 * as an assignment. What it cannot hold is a problem named by node, so an export never writes a
 * sheet the original rejects or reads otherwise.
 */
import { ACTIONS, codeFields, FUNCTION_KINDS, type Graph } from "@autograms/graph";
import { EXTENSION_FIELDS, LETTERED, ORIGINAL_LETTERED_COUNT, FIELD_COLUMN_NAMES } from "./columns.js";
import { translatePython } from "./python-code.js";
import { keptPython } from "./python-fields.js";

export interface ExportProblem {
  node: string;
  message: string;
}

/** Node keys with no column in the original's sheet that are no problem: where the node came from, and the Python it was imported from (written in its code cells). */
const NOT_COLUMNS = new Set(["loc", "python"]);

export function originalFormatProblems(graph: Graph): ExportProblem[] {
  const problems: ExportProblem[] = [];
  for (const node of graph.nodes) {
    const problem = (message: string) => problems.push({ node: node.name, message });
    if (!(ACTIONS as readonly string[]).includes(node.action))
      problem(`its action '${node.action}' is a custom action, which the original does not have`);
    for (const key of Object.keys(node)) {
      // assign is the original's `x=` prefix.
      if (NOT_COLUMNS.has(key) || key === "assign") continue;
      const lettered = (Object.values(LETTERED) as string[]).includes(key);
      if (EXTENSION_FIELDS.has(key) || (!lettered && !FIELD_COLUMN_NAMES.includes(key))) {
        problem(`its field '${key}' has no column in the original's sheets`);
      }
    }
    for (const field of Object.values(LETTERED)) {
      const count = node[field]?.length ?? 0;
      if (count > ORIGINAL_LETTERED_COUNT)
        problem(
          `its ${count} ${field} need more lettered columns than the original's ${ORIGINAL_LETTERED_COUNT} (a to e)`,
        );
    }
    if (
      node.action !== "code" &&
      !(FUNCTION_KINDS as readonly string[]).includes(node.action) &&
      node.instruction?.includes("=")
    ) {
      problem("its instruction holds '=', which the original reads as an assignment");
    }
    // A field that holds the translation of the original's Python is written as that Python.
    const kept = keptPython(node);
    for (const { field, code, what } of codeFields(node)) {
      if (EXTENSION_FIELDS.has(field) || kept.has(field)) continue; // the former reported as a field the original lacks
      if (translatePython(code).kind !== "unchanged")
        problem(`its ${what} '${short(code)}' is not the same code in Python, the language the original runs code in`);
    }
  }
  return problems;
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 50 ? `${flat.slice(0, 49)}…` : flat;
}
