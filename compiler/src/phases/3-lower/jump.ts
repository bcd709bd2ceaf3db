import type { BlockStmt, JumpStmt } from "../2-analyze/ir.js";
import type { JumpScope, LowerContext } from "./context.js";
import type { Target } from "./target.js";

/** break and continue make no node: whatever leads to them leads to where they jump. */
export function lowerBreak(stmt: JumpStmt, next: Target, ctx: LowerContext): Target {
  const scope = findScope(ctx, stmt, (s) => s.kind !== "block");
  return scope?.breakTo ?? next;
}

export function lowerContinue(stmt: JumpStmt, next: Target, ctx: LowerContext): Target {
  const scope = findScope(ctx, stmt, (s) => s.kind === "loop");
  if (scope && scope.continueTo === undefined) {
    ctx.diagnostics.report("jump_outside_loop", `'continue ${stmt.label}' names a statement that is not a loop`, stmt.loc);
    return next;
  }
  return scope?.continueTo ?? next;
}

export function lowerLabeledBlock(stmt: BlockStmt, prefix: string, next: Target, ctx: LowerContext): Target {
  ctx.jumps.push({ kind: "block", labels: stmt.labels, breakTo: next });
  const entry = ctx.lowerBlock(stmt.body, prefix, next, ctx);
  ctx.jumps.pop();
  return entry;
}

function findScope(ctx: LowerContext, stmt: JumpStmt, unlabelled: (scope: JumpScope) => boolean): JumpScope | undefined {
  for (let i = ctx.jumps.length - 1; i >= 0; i--) {
    const scope = ctx.jumps[i]!;
    if (stmt.label === undefined ? unlabelled(scope) : scope.labels.includes(stmt.label)) return scope;
  }
  const what = stmt.label !== undefined ? `'${stmt.kind} ${stmt.label}': no enclosing statement has that label`
    : stmt.kind === "break" ? "'break' outside a loop or switch" : "'continue' outside a loop";
  ctx.diagnostics.report("jump_outside_loop", what, stmt.loc);
  return undefined;
}
