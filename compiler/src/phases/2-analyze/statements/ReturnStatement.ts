import type TS from "typescript";
import { analyzeExpression } from "../expressions/code.js";
import { keyOf, loc, type FunctionContext } from "../context.js";
import type { Stmt } from "../ir.js";

/** `return thought(...)` returns the node's own output; any other value is computed by code. */
export function visitReturnStatement(node: TS.ReturnStatement, ctx: FunctionContext, out: Stmt[]): void {
  const base = { kind: "return" as const, loc: loc(ctx, node), key: keyOf(ctx, node) };
  if (!node.expression) {
    out.push({ ...base, value: null });
    return;
  }
  const analyzed = analyzeExpression(node.expression, ctx);
  out.push({
    ...base,
    value: analyzed.call
      ? { prelude: analyzed.prelude, node: analyzed.call }
      : { prelude: analyzed.prelude, code: analyzed.code },
  });
}
