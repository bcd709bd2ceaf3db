import type { JsonValue, Loc } from "@autograms/graph";
import type { CodeAt, CodeStmt, NodeStmt } from "../2-analyze/ir.js";
import type { LowerContext, PendingNode } from "./context.js";
import type { Target } from "./target.js";

export function isInterjection(stmt: NodeStmt): boolean {
  return stmt.fields.condition_interjection !== undefined;
}

/** An agent call's node: its fields as written, "next" resolved to the following statement. */
export function lowerNode(stmt: NodeStmt, prefix: string, next: Target, ctx: LowerContext): Target {
  const name = stmt.name ?? ctx.namer.name(prefix, stmt.construct, stmt.key);
  if (stmt.name !== undefined) {
    ctx.explicitNames.add(stmt.name);
    ctx.nameLocs.set(ctx.nodes.length, stmt.fieldLocs?.name ?? stmt.loc);
  }
  if (stmt.callPlaceholders) ctx.callPlaceholders.set(name, stmt.callPlaceholders);
  const codeLocs: Record<string, CodeAt> = {};
  if (stmt.fieldLocs?.condition) codeLocs.boolean_condition = stmt.fieldLocs.condition;
  stmt.fieldLocs?.transitions?.forEach((loc, i) => {
    codeLocs[`transitions/${i}`] = { loc };
  });
  if (Object.keys(codeLocs).length) ctx.codeLocs.set(ctx.nodes.length, codeLocs);
  const { action, instruction, transitions, ...rest } = stmt.fields;
  const targets: Target[] = (transitions ?? ["next"]).map((t) => (t === "next" ? next : t));
  (transitions ?? []).forEach((t, i) => {
    if (t === "next") return;
    const loc = stmt.fieldLocs?.transitions?.[i] ?? stmt.loc;
    ctx.written.push({ target: t, node: name, index: ctx.nodes.length, transition: i, loc });
  });
  const node: Record<string, JsonValue | Target[] | object> = { name, action };
  if (stmt.setup) node.setup = stmt.setup.map((s) => s.code).join(";\n");
  if (instruction !== undefined) node.instruction = instruction;
  if (stmt.assign !== undefined) node.assign = stmt.assign;
  node.transitions = targets;
  // The following statement is the code's flow, not part of this node: an edit there must not
  // strand a conversation waiting here (the runtime leaves these out of the node's identity).
  const implicit = (transitions ?? ["next"]).flatMap((t, i) => (t === "next" ? [i] : []));
  if (implicit.length) node.implicit_transitions = implicit;
  Object.assign(node, rest, { loc: stmt.loc, def_type: stmt.defType });
  ctx.nodes.push(node as unknown as PendingNode);
  return name;
}

export function lowerCode(stmt: CodeStmt, prefix: string, next: Target, ctx: LowerContext): Target {
  const name = ctx.namer.name(prefix, "code", stmt.key);
  ctx.nodes.push({
    name,
    action: "code",
    instruction: stmt.code,
    transitions: [next],
    loc: stmt.loc,
    def_type: "code",
  });
  return name;
}

/** A node that only branches (wildcard candidates, function entries). */
export function pushTransition(
  ctx: LowerContext,
  node: { name: string; transitions: Target[]; boolean_condition?: string; loc: Loc; def_type: string },
): void {
  const { name, transitions, boolean_condition, loc, def_type } = node;
  const condition = boolean_condition === undefined ? {} : { boolean_condition };
  ctx.nodes.push({ name, action: "transition", transitions, ...condition, loc, def_type });
}
