import type TS from "typescript";
import type { Loc } from "@autograms/graph";

/** 1-based start and exclusive end of a syntax node, without its leading trivia. */
export function locOf(node: TS.Node, file: TS.SourceFile): Loc {
  return locOfRange(file, node.getStart(file), node.getEnd());
}

export function locOfRange(file: TS.SourceFile, start: number, end: number): Loc {
  const s = file.getLineAndCharacterOfPosition(start);
  const e = file.getLineAndCharacterOfPosition(end);
  return { line: s.line + 1, column: s.character + 1, endLine: e.line + 1, endColumn: e.character + 1 };
}
