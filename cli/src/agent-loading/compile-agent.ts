// The compiler for the commands, through named imports: the bundle then loads only the parts of it
// that compiling needs (not the spreadsheet import and graph validation behind its other exports).
import { compile, formatDiagnostics, type SourceMapV3 } from "@autograms/compiler";
import type { Graph } from "@autograms/runtime";

export { graphToJson, graphFileName } from "@autograms/compiler";

export type CompiledAgent =
  | { graph: Graph; sourceMap: SourceMapV3; failure: null }
  /** `failure`: how many errors there were, and where ("2 errors in agent.ts"). */
  | { graph: null; sourceMap: null; failure: string };

/** Compiles an agent's source, printing its diagnostics tsc-style on stderr. */
export function compileAgent(text: string, fileName: string): CompiledAgent {
  const { graph, sourceMap, diagnostics } = compile(text, { fileName });
  if (diagnostics.length) process.stderr.write(formatDiagnostics(diagnostics, text, { color: process.stderr.isTTY }) + "\n");
  if (graph && sourceMap) return { graph, sourceMap, failure: null };
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  return { graph: null, sourceMap: null, failure: `${errors} error${errors === 1 ? "" : "s"} in ${fileName}` };
}
