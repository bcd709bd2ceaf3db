import type TS from "typescript";
import { report, type FunctionContext } from "../context.js";
import type { NodeStmt } from "../ir.js";

/** Prompt nodes produce no output; using one as a value is a mistake worth catching. */
export function checkHasValue(call: NodeStmt, ctx: FunctionContext, node: TS.Node): void {
  if (/^(set|append)_(user_)?prompt$/.test(call.fields.action)) {
    report(ctx, "void_node_value", "produces_no", node, { action: call.fields.action });
  }
}
