import type TS from "typescript";
import type { Loc } from "@autograms/graph";
import type { Diagnostics } from "../../diagnostics/diagnostic.js";
import { locOf } from "./loc.js";
import { typescript } from "./typescript.js";

/**
 * How deeply syntax may nest (a node's ancestors in the syntax tree; an `else if` counts as its
 * `if`'s own level, since a chain of them is a flat list of branches). Every later phase walks
 * the tree recursively, and the host's stack is finite: past this, a file is refused with a
 * located diagnostic instead of failing somewhere inside the compiler. Real agents nest a few
 * dozen levels; the evaluator's own limit for one piece of code is 200 (maxDepth).
 */
export const MAX_NESTING = 400;

/**
 * Checks the depth of the whole tree without recursion (an explicit stack), reporting the first
 * node too deep. Returns false when the file nests too deeply for the later phases.
 */
export function checkNesting(file: TS.SourceFile, diagnostics: Diagnostics, limit = MAX_NESTING): boolean {
  const ts = typescript();
  const stack: [TS.Node, number][] = [[file, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) {
      diagnostics.report("nesting_too_deep", "code_nests", firstLine(locOf(node, file)), { limit });
      return false;
    }
    const children: [TS.Node, number][] = [];
    ts.forEachChild(node, (child) => {
      const flat = ts.isIfStatement(node) && child === node.elseStatement && ts.isIfStatement(child);
      children.push([child, flat ? depth : depth + 1]);
    });
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return true;
}

/** The node's range cut to its first line: a code frame shows one line. */
function firstLine(loc: Loc): Loc {
  return loc.endLine === loc.line ? loc : { ...loc, endLine: loc.line, endColumn: loc.column + 1 };
}

/**
 * Where a text's brackets first nest deeper than `limit` (or, if they never do, where they nest
 * deepest), read without a parser: for a file too deep for the parser itself. Strings and
 * comments are skipped roughly; the place is a pointer for the author, not a parse.
 */
export function deepestBracket(text: string, limit: number): Loc {
  let depth = 0;
  let deepest = -1;
  let deepestAt = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "/" && text[i + 1] === "/") i = lineEnd(text, i);
    else if (c === "/" && text[i + 1] === "*") i = Math.max(i, text.indexOf("*/", i + 2) + 1) || text.length;
    else if (c === '"' || c === "'") i = quoteEnd(text, i, c);
    else if (c === "(" || c === "[" || c === "{") {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        deepestAt = i;
      }
      if (depth > limit) break;
    } else if (c === ")" || c === "]" || c === "}") depth--;
  }
  const before = text.slice(0, deepestAt);
  const line = before.split("\n").length;
  const column = deepestAt - before.lastIndexOf("\n");
  return { line, column, endLine: line, endColumn: column + 1 };
}

function lineEnd(text: string, i: number): number {
  const end = text.indexOf("\n", i);
  return end < 0 ? text.length : end;
}

function quoteEnd(text: string, i: number, quote: string): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === quote || text[j] === "\n") return j;
  }
  return text.length;
}
