import type TS from "typescript";
import type { Diagnostics } from "../../diagnostics/diagnostic.js";
import { checkNesting } from "./depth.js";
import { locOfRange } from "./loc.js";
import { typescript } from "./typescript.js";

/**
 * Parses the agent file on its own: no program, no lib files, no imports followed. The compiler
 * reads syntax only (type checking is the editor's and `tsc`'s job), which keeps a compile fast.
 * Returns null when the file does not parse, or nests too deeply for the later phases.
 */
export function parse(sourceText: string, fileName: string, diagnostics: Diagnostics): TS.SourceFile | null {
  const ts = typescript();
  // JSDoc means nothing to the compiler; not parsing it saves time on well-commented agents.
  const options = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };
  // TypeScript's parser is recursive: nesting a few thousand levels deep exhausts the stack, which
  // compile() reports as nesting_too_deep, as it does for every phase.
  const file = ts.createSourceFile(fileName, sourceText, options, true, ts.ScriptKind.TS);
  // The parser keeps its own syntax errors on the file; they are the ones `tsc` reports first.
  const parseErrors = (file as unknown as { parseDiagnostics: readonly TS.DiagnosticWithLocation[] }).parseDiagnostics;
  for (const d of parseErrors) {
    diagnostics.report("syntax_error", "typescript", locOfRange(file, d.start, d.start + d.length), {
      text: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
    });
  }
  if (parseErrors.length) return null;
  return checkNesting(file, diagnostics) ? file : null;
}
