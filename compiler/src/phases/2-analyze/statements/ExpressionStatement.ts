import type TS from "typescript";
import { typescript } from "../../1-parse/typescript.js";
import { analyzeExpression, guardedAssignmentStatement } from "../expressions/code.js";
import { keyOf, loc, type FunctionContext } from "../context.js";
import type { Stmt } from "../ir.js";
import { skipTypeWrappers } from "../literal.js";
import { assignStatements } from "./assign.js";

export function visitExpressionStatement(node: TS.ExpressionStatement, ctx: FunctionContext, out: Stmt[]): void {
  const ts = typescript();
  const expression = skipTypeWrappers(node.expression);
  // A lone string is a directive or a docstring: there is nothing to run.
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return;
  if (ts.isBinaryExpression(expression) && expression.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    assignStatements(expression.left, expression.right, node, ctx, out);
    return;
  }
  const guarded = guardedAssignmentStatement(expression, ctx);
  if (guarded) {
    out.push(...guarded);
    return;
  }
  const analyzed = analyzeExpression(node.expression, ctx);
  out.push(...analyzed.prelude);
  if (analyzed.call) out.push(analyzed.call);
  else out.push({ kind: "code", loc: loc(ctx, node), key: keyOf(ctx, node), code: analyzed.code });
}
