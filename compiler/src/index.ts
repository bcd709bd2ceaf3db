// Public API of @autograms/compiler (docs/compiler.md).
export { compile, graphToJson, graphFileName } from "./compile.js";
export type { CompileOptions, CompileResult } from "./compile.js";
export type { Diagnostic } from "./diagnostics/diagnostic.js";
export { DIAGNOSTICS } from "./diagnostics/catalogue.js";
export type { DiagnosticCode, Severity } from "./diagnostics/catalogue.js";
export { formatDiagnostics } from "./diagnostics/format.js";
export type { SourceMapV3 } from "./phases/4-emit/source-map.js";

// Pictures of a graph (pictures/) and the original's CSV spreadsheets (spreadsheet/).
export * from "./pictures/index.js";
export * from "./spreadsheet/index.js";
