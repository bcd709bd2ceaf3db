import { createRequire } from "node:module";
import type { Diagnostic } from "./diagnostic.js";

interface CodeFrameLocation {
  start: { line: number; column?: number };
  end?: { line: number; column?: number };
}
type CodeFrameColumns = (
  source: string,
  location: CodeFrameLocation,
  options?: { highlightCode?: boolean; linesAbove?: number; linesBelow?: number },
) => string;

let codeFrameColumns: CodeFrameColumns | undefined;

/** Any diagnostic with a position in a text: the compiler's, and others' (the spreadsheet importer's). */
export type FormattableDiagnostic = Omit<Diagnostic, "code"> & { code: string };

/**
 * Diagnostics as tsc prints them, each with a code frame of the source:
 *
 *     agent.ts:12:5 - error unknown_method: the agent class has no method 'ask'
 */
export function formatDiagnostics(
  diagnostics: readonly FormattableDiagnostic[],
  sourceText: string,
  options: { color?: boolean } = {},
): string {
  codeFrameColumns ??= (createRequire(import.meta.url)("@babel/code-frame") as { codeFrameColumns: CodeFrameColumns })
    .codeFrameColumns;
  const frame = codeFrameColumns;
  return diagnostics
    .map((d) => {
      const heading = `${d.file}:${d.line}:${d.column} - ${d.severity} ${d.code}: ${d.message}`;
      const end = d.endLine > d.line || d.endColumn > d.column ? { line: d.endLine, column: d.endColumn } : undefined;
      const location: CodeFrameLocation = end
        ? { start: { line: d.line, column: d.column }, end }
        : { start: { line: d.line, column: d.column } };
      const code = frame(sourceText, location, { highlightCode: options.color ?? false, linesAbove: 1, linesBelow: 1 });
      return `${heading}\n${code}\n`;
    })
    .join("\n");
}
