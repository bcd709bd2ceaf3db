import type TS from "typescript";
import { typescript } from "./typescript.js";

/**
 * The `{` a missing `}` most likely belongs to, by the file's indentation: the first block whose
 * `}` (the first thing on its line) is indented less than the line of its `{`, in a file with
 * more `{` than `}`. TypeScript's parser cannot tell where the brace went missing: it reads on,
 * pairs the next `}` with the wrong block, and reports errors far below, one for each thing that
 * no longer fits (11 for one brace in a class of a few methods). Undefined when the file's braces
 * balance or its indentation says nothing.
 */
export function unclosedBrace(file: TS.SourceFile): number | undefined {
  const ts = typescript();
  const text = file.text;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const open: { start: number; indent: number; template: boolean }[] = [];
  let suspect: number | undefined;
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    const start = scanner.getTokenStart();
    if (token === ts.SyntaxKind.OpenBraceToken || token === ts.SyntaxKind.TemplateHead) {
      open.push({ start, indent: indentOf(text, start), template: token === ts.SyntaxKind.TemplateHead });
    } else if (token === ts.SyntaxKind.CloseBraceToken) {
      // A `}` that ends a template's placeholder goes on with the template's text.
      if (open.at(-1)?.template && scanner.reScanTemplateToken(false) === ts.SyntaxKind.TemplateMiddle) continue;
      const block = open.pop();
      if (block && !block.template && suspect === undefined && firstOnLine(text, start)) {
        if (indentOf(text, start) < block.indent) suspect = block.start;
      }
    }
  }
  return open.some((b) => !b.template) ? suspect : undefined;
}

/** Columns of white space before the first character of the line `at` is on. */
function indentOf(text: string, at: number): number {
  const lineStart = text.lastIndexOf("\n", at - 1) + 1;
  let i = lineStart;
  while (text[i] === " " || text[i] === "\t") i++;
  return i - lineStart;
}

function firstOnLine(text: string, at: number): boolean {
  return text.slice(text.lastIndexOf("\n", at - 1) + 1, at).trim() === "";
}
