import type TS from "typescript";
import { expressionValue } from "../expressions/code.js";
import { keyOf, loc, type FunctionContext } from "../context.js";
import type { Stmt } from "../ir.js";

export function visitDoStatement(node: TS.DoStatement, ctx: FunctionContext, out: Stmt[], labels: string[]): void {
  const body = ctx.visit.body(node.statement, ctx);
  const test = expressionValue(node.expression, ctx);
  out.push({
    kind: "do_while",
    loc: loc(ctx, node),
    key: `do while (${keyOf(ctx, node.expression)})`,
    labels,
    test,
    body,
  });
}
