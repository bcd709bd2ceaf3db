import type TS from "typescript";
import { typescript } from "../../1-parse/typescript.js";
import { analyzeExpression, expressionValue } from "../expressions/code.js";
import { loc, report, type FunctionContext } from "../context.js";
import type { Stmt, SwitchClause } from "../ir.js";
import { headerKey } from "./header.js";
import { visitStatements } from "./index.js";

export function visitSwitchStatement(node: TS.SwitchStatement, ctx: FunctionContext, out: Stmt[], labels: string[]): void {
  const ts = typescript();
  const discriminant = expressionValue(node.expression, ctx);
  const clauses: SwitchClause[] = node.caseBlock.clauses.map((clause) => {
    let test = null;
    if (ts.isCaseClause(clause)) {
      const analyzed = analyzeExpression(clause.expression, ctx);
      // Case labels are tested together before any case runs; an agent call cannot be one.
      if (analyzed.call || analyzed.prelude.length) {
        report(ctx, "conditional_agent_call", "an agent call in a case label: compute the value before the switch", clause.expression);
      }
      test = { prelude: [], code: analyzed.code ?? "undefined" };
    }
    return { test, body: visitStatements(clause.statements, ctx), loc: loc(ctx, ts.isCaseClause(clause) ? clause.expression : clause) };
  });
  out.push({ kind: "switch", loc: loc(ctx, node), key: headerKey(ctx, node, node.caseBlock), labels, discriminant, clauses });
}
