import type TS from "typescript";
import { typescript } from "../../1-parse/typescript.js";
import { analyzeExpression, printCode, valueOf } from "../expressions/code.js";
import { checkHasValue } from "../expressions/has-value.js";
import { keyOf, loc, type FunctionContext } from "../context.js";
import type { Stmt } from "../ir.js";
import { skipTypeWrappers, thisMember } from "../literal.js";

/**
 * `target = value` as nodes: when the value is one agent call and the target a variable, the
 * node assigns its own output (`"assign": "x"`); otherwise a code node assigns the value.
 * `target` is an expression (`x`, `this.x`, `a[i]`, `[a, b]`) or, with `declare`, a
 * declaration's binding name (the evaluator creates variables only by declaring them).
 */
export function assignStatements(
  target: TS.Expression | TS.BindingName,
  value: TS.Expression | undefined,
  statement: TS.Node,
  ctx: FunctionContext,
  out: Stmt[],
  declare?: "let" | "const",
): void {
  const ts = typescript();
  const variable = variableName(target);
  const at = { loc: loc(ctx, statement), key: keyOf(ctx, statement) };
  if (value === undefined) {
    // Memory between nodes is JSON, which has no undefined: a variable declared without a value
    // starts as null (an undefined one would be dropped, and assigning it later would fail).
    out.push({ kind: "code", ...at, code: `let ${variable ?? printCode(target, ctx, [])} = null` });
    return;
  }
  const prelude: Stmt[] = [];
  const targetText = variable ?? printCode(target, ctx, prelude);
  const analyzed = analyzeExpression(value, ctx);
  out.push(...prelude);
  if (analyzed.call && variable) {
    checkHasValue(analyzed.call, ctx, value);
    out.push(...analyzed.prelude, { ...analyzed.call, assign: variable });
    return;
  }
  const expr = valueOf(analyzed, ctx, value);
  out.push(...expr.prelude);
  // An object pattern at the start of a statement would read as a block.
  const code = declare
    ? `${declare} ${targetText} = ${expr.code}`
    : ts.isObjectLiteralExpression(skipTypeWrappers(target as TS.Expression))
      ? `(${targetText} = ${expr.code})`
      : `${targetText} = ${expr.code}`;
  out.push({ kind: "code", ...at, code });
}

/** The variable a target names (`x`, or `x` for `this.x`), or null for any other target. */
function variableName(target: TS.Expression | TS.BindingName): string | null {
  const ts = typescript();
  if (ts.isIdentifier(target)) return target.text;
  if (ts.isObjectBindingPattern(target) || ts.isArrayBindingPattern(target)) return null;
  const inner = skipTypeWrappers(target);
  if (ts.isIdentifier(inner)) return inner.text;
  return thisMember(inner);
}
