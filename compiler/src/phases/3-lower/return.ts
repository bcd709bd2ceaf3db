import type { ReturnStmt } from "../2-analyze/ir.js";
import type { LowerContext } from "./context.js";
import { lowerNode } from "./node.js";
import { Label, type Target } from "./target.js";

/** The value is the output of the returning node: the agent call itself, a code node, or null. */
export function lowerReturn(stmt: ReturnStmt, prefix: string, ctx: LowerContext): Target {
  const { value } = stmt;
  if (value === null) {
    const name = ctx.namer.name(prefix, "return", stmt.key);
    ctx.nodes.push({ name, action: "transition", transitions: [ctx.end], loc: stmt.loc, def_type: "return" });
    return name;
  }
  const start = new Label();
  const entry = ctx.lowerBlock(value.prelude, prefix, start, ctx);
  if ("node" in value) {
    start.bind(lowerNode(value.node, prefix, ctx.end, ctx));
  } else {
    const name = ctx.namer.name(prefix, "return", stmt.key);
    ctx.nodes.push({
      name,
      action: "code",
      instruction: value.code,
      transitions: [ctx.end],
      loc: stmt.loc,
      def_type: "return",
    });
    start.bind(name);
  }
  return entry;
}
