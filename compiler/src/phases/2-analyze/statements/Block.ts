import type TS from "typescript";
import { loc, type FunctionContext } from "../context.js";
import type { Stmt } from "../ir.js";

/** A nested block runs in line; with a label, `break label` can leave it. */
export function visitBlock(node: TS.Block, ctx: FunctionContext, out: Stmt[], labels: string[]): void {
  if (labels.length === 0) {
    ctx.visit.statements(node.statements, ctx, out);
    return;
  }
  out.push({ kind: "block", loc: loc(ctx, node), labels, body: ctx.visit.statements(node.statements, ctx) });
}
