// The compiler for the commands, through named imports: the bundle then loads only the parts of it
// that compiling needs (not the spreadsheet import and graph validation behind its other exports).
import { compile, formatDiagnostics, type SourceMapV3 } from "@autograms/compiler";
import type { Graph } from "@autograms/runtime";

export { graphFileName } from "@autograms/compiler";

/** The compiler's diagnostics, or the spreadsheet import's. */
type Diagnostics = Parameters<typeof formatDiagnostics>[0];

export type CompiledAgent =
  /** `json`: the graph file's text, the one `sourceMap` describes. */
  | { graph: Graph; json: string; sourceMap: SourceMapV3; failure: null }
  /** `failure`: how many errors there were, and where ("2 errors in agent.ts"). */
  | { graph: null; json: null; sourceMap: null; failure: string };

/** Where diagnostics go, formatted: stderr by default; a debug adapter keeps each session's apart. */
export type DiagnosticSink = (formatted: (color: boolean) => string) => void;

const toStderr: DiagnosticSink = (formatted) => process.stderr.write(formatted(process.stderr.isTTY === true) + "\n");

/**
 * Compiles an agent's source, printing its diagnostics tsc-style (on stderr unless `sink` takes
 * them). With `typeCheckPath` (the file on disk), TypeScript's checker reads it too.
 */
export function compileAgent(
  text: string,
  fileName: string,
  sink: DiagnosticSink = toStderr,
  typeCheckPath?: string,
): CompiledAgent {
  const { graph, json, sourceMap, diagnostics } = compile(
    text,
    typeCheckPath ? { fileName, typeCheckPath } : { fileName },
  );
  printDiagnostics(diagnostics, text, sink);
  if (graph && json !== null && sourceMap) return { graph, json, sourceMap, failure: null };
  return { graph: null, json: null, sourceMap: null, failure: errorsIn(diagnostics, fileName) };
}

/** Prints diagnostics tsc-style, on stderr in colour on a terminal unless `sink` takes them. */
export function printDiagnostics(diagnostics: Diagnostics, text: string, sink: DiagnosticSink = toStderr): void {
  if (diagnostics.length) sink((color) => formatDiagnostics(diagnostics, text, { color }));
}

/** "2 errors in agent.ts" */
export function errorsIn(diagnostics: Diagnostics, fileName: string): string {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  return `${errors} error${errors === 1 ? "" : "s"} in ${fileName}`;
}
