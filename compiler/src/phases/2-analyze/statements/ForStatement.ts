import type TS from "typescript";
import { typescript } from "../../1-parse/typescript.js";
import { analyzeExpression, expressionValue } from "../expressions/code.js";
import { keyOf, loc, type FunctionContext } from "../context.js";
import type { Simple, Stmt } from "../ir.js";
import { headerKey } from "./header.js";
import { visitBody } from "./index.js";
import { visitVariableDeclarationList } from "./VariableStatement.js";

export function visitForStatement(node: TS.ForStatement, ctx: FunctionContext, out: Stmt[], labels: string[]): void {
  const ts = typescript();
  const init: Simple[] = [];
  if (node.initializer) {
    const statements: Stmt[] = [];
    if (ts.isVariableDeclarationList(node.initializer)) visitVariableDeclarationList(node.initializer, ctx, statements);
    else statements.push(...simpleStatements(node.initializer, ctx));
    init.push(...(statements as Simple[]));
  }
  const test = node.condition ? expressionValue(node.condition, ctx) : null;
  const update = node.incrementor ? simpleStatements(node.incrementor, ctx) : [];
  out.push({ kind: "for", loc: loc(ctx, node), key: headerKey(ctx, node, node.statement), labels, init, test, update, body: visitBody(node.statement, ctx) });
}

/** An expression run for its effect (a for loop's init or update), as nodes. */
function simpleStatements(expression: TS.Expression, ctx: FunctionContext): Simple[] {
  const analyzed = analyzeExpression(expression, ctx);
  if (analyzed.call) return [...analyzed.prelude, analyzed.call];
  return [...analyzed.prelude, { kind: "code", loc: loc(ctx, expression), key: keyOf(ctx, expression), code: analyzed.code }];
}
