import type TS from "typescript";
import type { Diagnostics } from "../../diagnostics/diagnostic.js";
import { checkNesting } from "./depth.js";
import { locOfRange } from "./loc.js";
import { typescript } from "./typescript.js";
import { unclosedBrace } from "./unclosed.js";

/**
 * Parses the agent file on its own: no program, no lib files, no imports followed (the type check,
 * when asked for, is apart: typecheck/). Returns null when the file does not parse, or nests too
 * deeply for the later phases.
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
  const first = parseErrors[0];
  if (first === undefined) return checkNesting(file, diagnostics) ? file : null;
  // One mistake, one error: after the first, the parser's errors are mostly what the first one
  // made of the rest of the file. A missing '}' is reported where its block opens.
  const brace = unclosedBrace(file);
  if (brace !== undefined) diagnostics.report("syntax_error", "unclosed_brace", locOfRange(file, brace, brace + 1));
  else {
    diagnostics.report("syntax_error", "typescript", locOfRange(file, first.start, first.start + first.length), {
      text: ts.flattenDiagnosticMessageText(first.messageText, "\n"),
    });
  }
  return null;
}
