// Conversions between graphs and other formats: pictures (Mermaid, DOT) and the original's CSV spreadsheets.
export { toMermaid } from "./mermaid.js";
export { toDot } from "./dot.js";
export { importSpreadsheet } from "./spreadsheet-import.js";
export type { ImportOptions, SpreadsheetImport } from "./spreadsheet-import.js";
export { exportSpreadsheet, spreadsheetExportLosses } from "./spreadsheet-export.js";
export type { SpreadsheetDiagnostic, SpreadsheetDiagnosticCode } from "./spreadsheet-diagnostics.js";
export { parseCsv, writeCsv } from "./csv-text.js";
export type { CsvCell, CsvError, CsvTable } from "./csv-text.js";
