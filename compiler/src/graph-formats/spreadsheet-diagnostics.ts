import type { Diagnostic } from "../diagnostics/diagnostic.js";

/**
 * What the spreadsheet importer reports. Same shape as the compiler's diagnostics (so one
 * formatter prints both), plus the spreadsheet's own coordinates: row number (the header is
 * row 1) and column letter, as a spreadsheet program shows them.
 */

export const SPREADSHEET_DIAGNOSTICS = {
  csv_syntax: { severity: "error", summary: "The text is not well-formed CSV (an unclosed quote, text after a closing quote)." },
  csv_empty: { severity: "error", summary: "The file has no header row or no node rows." },
  csv_unknown_column: { severity: "error", summary: "A header that is not one of the original's columns." },
  csv_duplicate_column: { severity: "error", summary: "Two headers that name the same column." },
  csv_missing_column: { severity: "error", summary: "The header has no name or no action column." },
  csv_extra_cell: { severity: "error", summary: "A filled cell to the right of the last header." },
  csv_missing_cell: { severity: "error", summary: "A node row without a name, an action or transitions." },
  csv_unknown_action: { severity: "error", summary: "An action that is not one of the original's actions." },
  csv_invalid_number: { severity: "error", summary: "A number column with text that is not a number in range." },
  csv_invalid_name: { severity: "error", summary: "A callable node name f(a, b) whose function or parameters are not identifiers." },
  csv_choice_gap: { severity: "error", summary: "A lettered column (transition_choice_c) filled after an empty one (transition_choice_b)." },
  csv_unknown_function: { severity: "error", summary: "A function node calling a function that no callable node f(...) defines." },
  csv_function_kind: { severity: "error", summary: "A function called with different actions (function, local_function, global_function)." },
  csv_duplicate_function: { severity: "error", summary: "Two callable nodes for the same function." },
  csv_invalid_graph: { severity: "error", summary: "The imported graph breaks a rule of the graph format (a duplicate name, a transition to a missing node, ...)." },
  csv_assignment_kept: { severity: "warning", summary: "An instruction the original would have cut at its first '=' as an assignment to a non-variable; kept whole." },
  csv_internal_error: { severity: "error", summary: "The importer failed on this input: a bug, please report it." },
  csv_code_variable: { severity: "warning", summary: "'$name' in code: the original spliced the text in; the graph's code sees variables as values and keeps '$name' as written." },
} as const;

export type SpreadsheetDiagnosticCode = keyof typeof SPREADSHEET_DIAGNOSTICS;

/** Its line and column are the cell's position in the CSV text, 1-based. */
export type SpreadsheetDiagnostic = Omit<Diagnostic, "code"> & {
  code: SpreadsheetDiagnosticCode;
  /** Spreadsheet row, 1-based; the header is row 1. */
  row: number;
  /** Spreadsheet column letter (A, B, ..., AA), when the problem is in one cell. */
  sheetColumn?: string;
};

/** A, B, ..., Z, AA, AB, ... as spreadsheet programs name columns. */
export function columnLetter(index: number): string {
  let s = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}
