import type TS from "typescript";
import type { FunctionContext } from "../context.js";
import type { Stmt } from "../ir.js";

export function visitLabeledStatement(
  node: TS.LabeledStatement,
  ctx: FunctionContext,
  out: Stmt[],
  labels: string[],
): void {
  ctx.visit.statement(node.statement, ctx, out, [...labels, node.label.text]);
}
