import type TS from "typescript";
import { typescript } from "../../1-parse/typescript.js";
import { loc, type FunctionContext } from "../context.js";
import type { JumpStmt, Stmt } from "../ir.js";

export function visitBreakOrContinueStatement(
  node: TS.BreakOrContinueStatement,
  ctx: FunctionContext,
  out: Stmt[],
): void {
  const ts = typescript();
  const jump: JumpStmt = {
    kind: node.kind === ts.SyntaxKind.BreakStatement ? "break" : "continue",
    loc: loc(ctx, node),
  };
  if (node.label) jump.label = node.label.text;
  out.push(jump);
}
