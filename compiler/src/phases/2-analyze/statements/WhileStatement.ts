import type TS from "typescript";
import { expressionValue } from "../expressions/code.js";
import { loc, type FunctionContext } from "../context.js";
import type { Stmt } from "../ir.js";
import { headerKey } from "./header.js";

export function visitWhileStatement(
  node: TS.WhileStatement,
  ctx: FunctionContext,
  out: Stmt[],
  labels: string[],
): void {
  const test = expressionValue(node.expression, ctx);
  out.push({
    kind: "while",
    loc: loc(ctx, node),
    key: headerKey(ctx, node, node.statement),
    labels,
    test,
    body: ctx.visit.body(node.statement, ctx),
  });
}
