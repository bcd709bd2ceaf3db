// The original's CSV spreadsheets, both ways (its Python code cells translated on import).
export { importSpreadsheet } from "./import.js";
export type { ImportOptions, SpreadsheetImport } from "./import.js";
export { moduleTools } from "./tool-module.js";
export { exportSpreadsheet, spreadsheetExportLosses, SpreadsheetExportError } from "./export.js";
export type { ExportOptions, SpreadsheetFormat } from "./export.js";
export type { ExportProblem } from "./original-format.js";
export type { SpreadsheetDiagnostic, SpreadsheetDiagnosticCode } from "./diagnostics.js";
export { parseCsv, writeCsv } from "./csv-text.js";
export type { CsvCell, CsvError, CsvTable } from "./csv-text.js";
