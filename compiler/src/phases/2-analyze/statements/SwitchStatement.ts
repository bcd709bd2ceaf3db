import type TS from "typescript";
import { typescript } from "../../1-parse/typescript.js";
import { expressionValue } from "../expressions/code.js";
import { loc, type FunctionContext } from "../context.js";
import type { Stmt, SwitchClause } from "../ir.js";
import { headerKey } from "./header.js";

export function visitSwitchStatement(
  node: TS.SwitchStatement,
  ctx: FunctionContext,
  out: Stmt[],
  labels: string[],
): void {
  const ts = typescript();
  const discriminant = expressionValue(node.expression, ctx);
  const clauses: SwitchClause[] = node.caseBlock.clauses.map((clause) => {
    // A case label's agent calls run only when the cases before it did not match (lowering sees to it).
    const test = ts.isCaseClause(clause) ? expressionValue(clause.expression, ctx) : null;
    return {
      test,
      body: ctx.visit.statements(clause.statements, ctx),
      loc: loc(ctx, ts.isCaseClause(clause) ? clause.expression : clause),
    };
  });
  out.push({
    kind: "switch",
    loc: loc(ctx, node),
    key: headerKey(ctx, node, node.caseBlock),
    labels,
    discriminant,
    clauses,
  });
}
