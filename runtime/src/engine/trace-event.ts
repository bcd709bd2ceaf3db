/**
 * The trace events a step reports, and the variable changes they carry. Built only when someone
 * listens (`env.tracing`).
 */
import { type GraphNode, type JsonValue, LAST_OUTPUT, LAST_STATE } from "@autograms/graph";
import type { TraceEvent, VariableChange } from "../trace/events.js";
import type { Env } from "./env.js";
import { lookupVar } from "./scope.js";
import type { RunMemory, Stack } from "./stack.js";

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
  const cn = env.program.nodes.get(node.name);
  const stack = functionNames(mem.stack);
  const loc = node.loc ?? null;
  // The same fields in the same order; a custom action's node also names the action it is based on.
  return (
    cn?.custom
      ? { node: node.name, loc, action: node.action, base: cn.as, stack, changes, ...body }
      : { node: node.name, loc, action: node.action, stack, changes, ...body }
  ) as TraceEvent;
}

/** The functions of the stack's frames, main first. */
function functionNames(stack: Stack): string[] {
  const names = new Array<string>(stack.height);
  for (let s: Stack | null = stack; s !== null; s = s.below) names[s.height - 1] = s.frame.function ?? "main";
  return names;
}

/** What a write of `values` changes, as seen from the top frame before it. */
export function changesOf(env: Env, mem: RunMemory, values: Record<string, JsonValue>): VariableChange[] {
  if (!env.tracing) return [];
  const out: VariableChange[] = [];
  for (const name of Object.keys(values)) {
    if (name === LAST_STATE || name === LAST_OUTPUT) continue;
    const after = values[name]!;
    const before = lookupVar(mem.stack, name);
    if (before !== undefined && sameJson(before, after)) continue;
    out.push(before === undefined ? { name, after } : { name, before, after });
  }
  return out;
}

/** Whether two values have the same JSON text; numbers and strings (a loop's values) compared without making it. */
function sameJson(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  const ta = typeof a;
  // Two different strings, or a string and anything else, differ; so do two different finite numbers.
  if (ta === "string" || typeof b === "string") return false;
  if (ta === "number" && typeof b === "number" && Number.isFinite(a) && Number.isFinite(b)) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What assigning a node's output changes (nothing without `assign`). */
export function assignChanges(env: Env, mem: RunMemory, node: GraphNode, output: JsonValue): VariableChange[] {
  return node.assign ? changesOf(env, mem, { [node.assign]: output }) : [];
}
