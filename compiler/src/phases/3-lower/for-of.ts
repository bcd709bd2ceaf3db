import type { ForOfStmt } from "../2-analyze/ir.js";
import { shortHash } from "../../hash.js";
import { LOOP_PREFIX } from "../../compiler-variables.js";
import type { LowerContext } from "./context.js";
import { pushTransition } from "./node.js";
import { Label, type Target } from "./target.js";

/**
 * Walks the iterable by index with two variables of the function's scope (plain JSON, so the
 * memory stays serializable mid-loop): `X.iterable` and `X.counter` start, `X.a` / `X.b`
 * test the index, `X.item` sets the loop variable, the body, then `X.step` counts on.
 */
export function lowerForOf(stmt: ForOfStmt, prefix: string, next: Target, ctx: LowerContext): Target {
  const base = ctx.namer.name(prefix, stmt.construct, stmt.key);
  const id = `${LOOP_PREFIX}${shortHash(`${ctx.fn.name}:${base}`, 6)}`;
  const items = `${id}_items`;
  const index = `${id}_i`;
  const common = { loc: stmt.loc, def_type: stmt.construct };
  const start = new Label();
  const entry = ctx.lowerBlock(stmt.iterable.prelude, base, start, ctx);
  start.bind(`${base}.iterable`);
  ctx.nodes.push({
    name: `${base}.iterable`,
    action: "code",
    instruction: `let ${items} = ${stmt.iterable.code}`,
    transitions: [`${base}.counter`],
    ...common,
  });
  ctx.nodes.push({
    name: `${base}.counter`,
    action: "code",
    instruction: `let ${index} = 0`,
    transitions: [`${base}.*`],
    ...common,
  });
  pushTransition(ctx, {
    name: `${base}.a`,
    transitions: [`${base}.item`],
    boolean_condition: `${index} < ${items}.length`,
    ...common,
  });
  pushTransition(ctx, { name: `${base}.b`, transitions: [next], ...common });
  const body = new Label();
  const item = `${stmt.target} = ${items}[${index}]`;
  // Without a declaration an object pattern would open the statement and read as a block.
  const setItem = stmt.declare ? `${stmt.declare} ${item}` : stmt.target.startsWith("{") ? `(${item})` : item;
  ctx.nodes.push({ name: `${base}.item`, action: "code", instruction: setItem, transitions: [body], ...common });
  ctx.jumps.push({ kind: "loop", labels: stmt.labels, breakTo: next, continueTo: `${base}.step` });
  body.bind(ctx.lowerBlock(stmt.body, base, `${base}.step`, ctx));
  ctx.jumps.pop();
  ctx.nodes.push({
    name: `${base}.step`,
    action: "code",
    instruction: `${index} = ${index} + 1`,
    transitions: [`${base}.*`],
    ...common,
  });
  return entry;
}
