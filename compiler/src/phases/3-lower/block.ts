import type { Stmt } from "../2-analyze/ir.js";
import type { LowerContext } from "./context.js";
import { lowerFor } from "./for.js";
import { lowerForOf } from "./for-of.js";
import { lowerIf } from "./if.js";
import { lowerBreak, lowerContinue, lowerLabeledBlock } from "./jump.js";
import { isInterjection, lowerCode, lowerNode } from "./node.js";
import { lowerReturn } from "./return.js";
import { lowerSwitch } from "./switch.js";
import { Label, type Target } from "./target.js";
import { lowerDoWhile, lowerWhile } from "./while.js";

/**
 * Lowers statements in order and returns the entry of the first. Each statement continues with
 * the next one's entry, the last with `next`. An interjection node is out of line: the flow
 * passes over it, and it continues with the statement after it.
 */
export function lowerBlock(stmts: readonly Stmt[], prefix: string, next: Target, ctx: LowerContext): Target {
  let entry: Target | null = null;
  let waiting: Label[] = [];
  for (const stmt of stmts) {
    const after = new Label();
    const stmtEntry = lowerStmt(stmt, prefix, after, ctx);
    if (stmt.kind === "node" && isInterjection(stmt)) {
      waiting.push(after);
      continue;
    }
    for (const label of waiting) label.bind(stmtEntry);
    entry ??= stmtEntry;
    waiting = [after];
  }
  for (const label of waiting) label.bind(next);
  return entry ?? next;
}

export function lowerStmt(stmt: Stmt, prefix: string, next: Target, ctx: LowerContext): Target {
  const entry = lowerStmtKind(stmt, prefix, next, ctx);
  ctx.entries.set(stmt, entry);
  return entry;
}

function lowerStmtKind(stmt: Stmt, prefix: string, next: Target, ctx: LowerContext): Target {
  switch (stmt.kind) {
    case "node":
      return lowerNode(stmt, prefix, next, ctx);
    case "code":
      return lowerCode(stmt, prefix, next, ctx);
    case "return":
      return lowerReturn(stmt, prefix, ctx);
    case "if":
      return lowerIf(stmt, prefix, next, ctx);
    case "while":
      return lowerWhile(stmt, prefix, next, ctx);
    case "do_while":
      return lowerDoWhile(stmt, prefix, next, ctx);
    case "for":
      return lowerFor(stmt, prefix, next, ctx);
    case "for_of":
      return lowerForOf(stmt, prefix, next, ctx);
    case "switch":
      return lowerSwitch(stmt, prefix, next, ctx);
    case "break":
      return lowerBreak(stmt, next, ctx);
    case "continue":
      return lowerContinue(stmt, next, ctx);
    case "block":
      return lowerLabeledBlock(stmt, prefix, next, ctx);
  }
}
