import type TS from "typescript";
import { typescript } from "../../1-parse/typescript.js";
import { analyzeExpression, expressionValue, guardedAssignmentStatement } from "../expressions/code.js";
import { keyOf, loc, type FunctionContext } from "../context.js";
import type { Stmt } from "../ir.js";
import { headerKey } from "./header.js";
import { visitVariableDeclarationList } from "./VariableStatement.js";

export function visitForStatement(node: TS.ForStatement, ctx: FunctionContext, out: Stmt[], labels: string[]): void {
  const ts = typescript();
  const init: Stmt[] = [];
  if (node.initializer) {
    const statements: Stmt[] = [];
    if (ts.isVariableDeclarationList(node.initializer)) visitVariableDeclarationList(node.initializer, ctx, statements);
    else statements.push(...effectStatements(node.initializer, ctx));
    init.push(...statements);
  }
  const test = node.condition ? expressionValue(node.condition, ctx) : null;
  const update = node.incrementor ? effectStatements(node.incrementor, ctx) : [];
  out.push({
    kind: "for",
    loc: loc(ctx, node),
    key: headerKey(ctx, node, node.statement),
    labels,
    init,
    test,
    update,
    body: ctx.visit.body(node.statement, ctx),
  });
}

/** An expression run for its effect (a for loop's init or update), as nodes. */
function effectStatements(expression: TS.Expression, ctx: FunctionContext): Stmt[] {
  const guarded = guardedAssignmentStatement(expression, ctx);
  if (guarded) return guarded;
  const analyzed = analyzeExpression(expression, ctx);
  if (analyzed.call) return [...analyzed.prelude, analyzed.call];
  return [
    ...analyzed.prelude,
    { kind: "code", loc: loc(ctx, expression), key: keyOf(ctx, expression), code: analyzed.code },
  ];
}
