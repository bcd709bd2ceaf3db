import { candidateName, seriesTarget } from "@autograms/graph";
import type { IfBranch, IfStmt } from "../2-analyze/ir.js";
import type { LowerContext } from "./context.js";
import { pushTransition } from "./node.js";
import { Label, type Target } from "./target.js";

/**
 * `if` / `else if` / `else` as one `X.*` wildcard: candidate `X.a` holds the first condition,
 * `X.b` the next, and a last candidate without a condition is the `else` (or goes straight on
 * when there is none). An `else if` whose condition needs an agent call first cannot be a
 * candidate (conditions are tested together); it opens a nested if in the else branch.
 */
export function lowerIf(stmt: IfStmt, prefix: string, next: Target, ctx: LowerContext): Target {
  const base = ctx.namer.name(prefix, stmt.construct ?? "if", stmt.key);
  const [first] = stmt.branches;
  const start = new Label();
  const entry = ctx.lowerBlock(first?.test?.prelude ?? [], prefix, start, ctx);
  start.bind(lowerCandidates(stmt, base, next, ctx));
  return entry;
}

function lowerCandidates(stmt: IfStmt, base: string, next: Target, ctx: LowerContext): Target {
  const def_type = stmt.construct ?? "if";
  const flat: IfBranch[] = [];
  const rest: IfBranch[] = [];
  stmt.branches.forEach((branch, i) => {
    if (rest.length || (i > 0 && branch.test && branch.test.prelude.length > 0)) rest.push(branch);
    else flat.push(branch);
  });
  flat.forEach((branch, i) => {
    const name = candidateName("lettered", base, i);
    const body = new Label();
    const node = { name, transitions: [body], loc: branch.loc, def_type };
    pushTransition(ctx, branch.test ? { ...node, boolean_condition: branch.test.code } : node);
    body.bind(ctx.lowerBlock(branch.body, name, next, ctx));
  });
  if (flat[flat.length - 1]?.test) {
    const name = candidateName("lettered", base, flat.length);
    if (rest.length) {
      const body = new Label();
      pushTransition(ctx, { name, transitions: [body], loc: rest[0]!.loc, def_type });
      body.bind(lowerIf({ ...stmt, loc: rest[0]!.loc, key: `${stmt.key} else`, branches: rest }, name, next, ctx));
    } else {
      pushTransition(ctx, { name, transitions: [next], loc: stmt.loc, def_type });
    }
  }
  return seriesTarget("lettered", base);
}
