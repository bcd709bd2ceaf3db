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
    ctx.diagnostics.report("jump_outside_loop", "continue_names", stmt.loc, { label: stmt.label });
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

function findScope(
  ctx: LowerContext,
  stmt: JumpStmt,
  unlabelled: (scope: JumpScope) => boolean,
): JumpScope | undefined {
  for (let i = ctx.jumps.length - 1; i >= 0; i--) {
    const scope = ctx.jumps[i]!;
    if (stmt.label === undefined ? unlabelled(scope) : scope.labels.includes(stmt.label)) return scope;
  }
  if (stmt.label !== undefined)
    ctx.diagnostics.report("jump_outside_loop", "unknown_label", stmt.loc, { kind: stmt.kind, label: stmt.label });
  else ctx.diagnostics.report("jump_outside_loop", stmt.kind, stmt.loc);
  return undefined;
}
