import type { ForStmt } from "../2-analyze/ir.js";
import type { LowerContext } from "./context.js";
import { pushTransition } from "./node.js";
import { Label, type Target } from "./target.js";

/** init, then `X.a` (condition, or always) into the body and `X.b` out; the body goes on to the update. */
export function lowerFor(stmt: ForStmt, prefix: string, next: Target, ctx: LowerContext): Target {
  const base = ctx.namer.name(prefix, "for", stmt.key);
  const head = new Label();
  const entry = ctx.lowerBlock(stmt.init, base, head, ctx);
  const headEntry = ctx.lowerBlock(stmt.test?.prelude ?? [], base, `${base}.*`, ctx);
  head.bind(headEntry);
  const body = new Label();
  pushTransition(ctx, {
    name: `${base}.a`,
    transitions: [body],
    boolean_condition: stmt.test?.code ?? "true",
    loc: stmt.loc,
    def_type: "for",
  });
  pushTransition(ctx, { name: `${base}.b`, transitions: [next], loc: stmt.loc, def_type: "for" });
  const update = new Label();
  ctx.jumps.push({ kind: "loop", labels: stmt.labels, breakTo: next, continueTo: update });
  body.bind(ctx.lowerBlock(stmt.body, base, update, ctx));
  ctx.jumps.pop();
  update.bind(ctx.lowerBlock(stmt.update, base, headEntry, ctx));
  return entry;
}
