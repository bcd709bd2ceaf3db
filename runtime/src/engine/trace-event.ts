/**
 * The trace events a step reports, and the variable changes they carry. Built only when someone
 * listens (`env.tracing`).
 */
import type { GraphNode, JsonValue } from "../graph/types.js";
import type { TraceEvent, VariableChange } from "../trace/events.js";
import type { Env } from "./env.js";
import { lookupVar } from "./scope.js";
import { toFrames, type RunMemory } from "./stack.js";

type Distribute<T> = T extends unknown ? Omit<T, "node" | "loc" | "action" | "stack" | "changes"> : never;
export type EventBody = Distribute<TraceEvent>;

export function event(
  env: Env,
  mem: RunMemory,
  node: GraphNode,
  body: EventBody,
  changes: VariableChange[] = [],
): TraceEvent | null {
  if (!env.tracing) return null;
  const custom = env.program.nodes.get(node.name)?.custom;
  return {
    node: node.name,
    loc: node.loc ?? null,
    action: node.action,
    ...(custom && { base: env.program.nodes.get(node.name)!.as }),
    stack: toFrames(mem.stack).map((f) => f.function ?? "main"),
    changes,
    ...body,
  } as TraceEvent;
}

/** What a write of `values` changes, as seen from the top frame before it. */
export function changesOf(env: Env, mem: RunMemory, values: Record<string, JsonValue>): VariableChange[] {
  if (!env.tracing) return [];
  const out: VariableChange[] = [];
  for (const [name, after] of Object.entries(values)) {
    if (name === "_last_state" || name === "_last_variable_output") continue;
    const before = lookupVar(mem.stack, name);
    if (before !== undefined && JSON.stringify(before) === JSON.stringify(after)) continue;
    out.push(before === undefined ? { name, after } : { name, before, after });
  }
  return out;
}

/** What assigning a node's output changes (nothing without `assign`). */
export function assignChanges(env: Env, mem: RunMemory, node: GraphNode, output: JsonValue): VariableChange[] {
  return node.assign ? changesOf(env, mem, { [node.assign]: output }) : [];
}
