import type { WhileStmt } from "../2-analyze/ir.js";
import type { LowerContext } from "./context.js";
import { pushTransition } from "./node.js";
import { Label, type Target } from "./target.js";

/**
 * `X.a` (the condition) enters the body, `X.b` leaves; the body loops back to the condition,
 * recomputing any agent call the condition needs.
 */
export function lowerWhile(stmt: WhileStmt, prefix: string, next: Target, ctx: LowerContext): Target {
  const base = ctx.namer.name(prefix, "while", stmt.key);
  const head = ctx.lowerBlock(stmt.test.prelude, base, `${base}.*`, ctx);
  const body = new Label();
  pushTransition(ctx, {
    name: `${base}.a`,
    transitions: [body],
    boolean_condition: stmt.test.code,
    loc: stmt.loc,
    def_type: "while",
  });
  pushTransition(ctx, { name: `${base}.b`, transitions: [next], loc: stmt.loc, def_type: "while" });
  ctx.jumps.push({ kind: "loop", labels: stmt.labels, breakTo: next, continueTo: head });
  body.bind(ctx.lowerBlock(stmt.body, base, head, ctx));
  ctx.jumps.pop();
  return head;
}

/** The body first, then the condition: `X.a` goes round again, `X.b` leaves. */
export function lowerDoWhile(stmt: WhileStmt, prefix: string, next: Target, ctx: LowerContext): Target {
  const base = ctx.namer.name(prefix, "do_while", stmt.key);
  const condition = new Label();
  ctx.jumps.push({ kind: "loop", labels: stmt.labels, breakTo: next, continueTo: condition });
  const body = ctx.lowerBlock(stmt.body, base, condition, ctx);
  ctx.jumps.pop();
  condition.bind(ctx.lowerBlock(stmt.test.prelude, base, `${base}.*`, ctx));
  pushTransition(ctx, {
    name: `${base}.a`,
    transitions: [body],
    boolean_condition: stmt.test.code,
    loc: stmt.loc,
    def_type: "do_while",
  });
  pushTransition(ctx, { name: `${base}.b`, transitions: [next], loc: stmt.loc, def_type: "do_while" });
  return body;
}
