import type { DiagnosticCode } from "../diagnostics/catalogue.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";

/**
 * What the spreadsheet importer reports: its codes (`csv_*`) are in the one catalogue with the
 * compiler's, and its diagnostics have the same shape (so one formatter prints both), plus the
 * spreadsheet's own coordinates: row number (the header is row 1) and column letter, as a
 * spreadsheet program shows them.
 */

/** The importer's codes: the `csv_` part of the one catalogue. */
export type SpreadsheetDiagnosticCode = Extract<DiagnosticCode, `csv_${string}`>;

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
