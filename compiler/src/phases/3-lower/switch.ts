import type { SwitchStmt } from "../2-analyze/ir.js";
import { shortHash } from "../../hash.js";
import { TEMP_PREFIX } from "../2-analyze/scope.js";
import { lowerBlock } from "./block.js";
import type { LowerContext } from "./context.js";
import { letter } from "./names.js";
import { pushTransition } from "./node.js";
import { Label, type Target } from "./target.js";

const SIMPLE_VALUE = /^([A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*|-?\d+(\.\d+)?|"[^"\\]*"|'[^'\\]*')$/;

/**
 * One `X.*` candidate per case (`value === test`), the default last; case bodies follow one
 * another in source order so that a case without break falls through as in JavaScript.
 */
export function lowerSwitch(stmt: SwitchStmt, prefix: string, next: Target, ctx: LowerContext): Target {
  const base = ctx.namer.name(prefix, "switch", stmt.key);
  const start = new Label();
  const entry = lowerBlock(stmt.discriminant.prelude, prefix, start, ctx);
  let value = stmt.discriminant.code;
  if (!SIMPLE_VALUE.test(value)) {
    // Computed once, as JavaScript does, rather than once per case.
    const temp = `${TEMP_PREFIX}${shortHash(`${ctx.fn.name}:${base}`, 6)}`;
    ctx.nodes.push({ name: `${base}.value`, action: "code", instruction: `let ${temp} = ${value}`, transitions: [`${base}.*`], loc: stmt.loc, def_type: "switch" });
    start.bind(`${base}.value`);
    value = temp;
  } else {
    start.bind(`${base}.*`);
  }
  const order = [...stmt.clauses.filter((c) => c.test), ...stmt.clauses.filter((c) => !c.test)];
  const bodies = stmt.clauses.map(() => new Label());
  order.forEach((clause, i) => {
    const body = bodies[stmt.clauses.indexOf(clause)]!;
    const node = { name: `${base}.${letter(i)}`, transitions: [body], loc: clause.loc, def_type: "switch" };
    const test = clause.test && (SIMPLE_VALUE.test(clause.test.code) ? clause.test.code : `(${clause.test.code})`);
    pushTransition(ctx, test ? { ...node, boolean_condition: `${value} === ${test}` } : node);
  });
  if (!stmt.clauses.some((c) => !c.test)) {
    pushTransition(ctx, { name: `${base}.${letter(order.length)}`, transitions: [next], loc: stmt.loc, def_type: "switch" });
  }
  ctx.jumps.push({ kind: "switch", labels: stmt.labels, breakTo: next });
  const after = stmt.clauses.map((_, i) => (i + 1 < stmt.clauses.length ? bodies[i + 1]! : next));
  stmt.clauses.forEach((clause, i) => {
    bodies[i]!.bind(lowerBlock(clause.body, `${base}.${letter(order.indexOf(clause))}`, after[i]!, ctx));
  });
  ctx.jumps.pop();
  return entry;
}
