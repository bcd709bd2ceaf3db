import type TS from "typescript";
import { typescript } from "../../1-parse/typescript.js";
import { expressionValue } from "../expressions/code.js";
import { loc, type FunctionContext } from "../context.js";
import type { IfBranch, Stmt } from "../ir.js";
import { headerKey } from "./header.js";

/** `if` / `else if` ... / `else` as one statement with its branches in order. */
export function visitIfStatement(node: TS.IfStatement, ctx: FunctionContext, out: Stmt[]): void {
  const ts = typescript();
  const branches: IfBranch[] = [];
  let current: TS.IfStatement = node;
  for (;;) {
    branches.push({
      test: expressionValue(current.expression, ctx),
      body: ctx.visit.body(current.thenStatement, ctx),
      loc: loc(ctx, current.expression),
    });
    const otherwise = current.elseStatement;
    if (!otherwise) break;
    if (ts.isIfStatement(otherwise)) {
      current = otherwise;
      continue;
    }
    branches.push({ test: null, body: ctx.visit.body(otherwise, ctx), loc: loc(ctx, otherwise) });
    break;
  }
  out.push({ kind: "if", loc: loc(ctx, node), key: headerKey(ctx, node, node.thenStatement), branches });
}
