/**
 * A node's output: it goes to `_last_variable_output` (and `assign`), with `_last_state`; then
 * the node's transitions come next.
 */
import { type GraphNode, type JsonValue, LAST_OUTPUT, LAST_STATE } from "@autograms/graph";
import { setOwn } from "../memory/own.js";
import { moved } from "./result.js";
import { frameWith, top, withTop } from "./scope.js";
import type { RunMemory } from "./stack.js";
import type { RunState } from "./state.js";
import type { Env } from "./env.js";

/**
 * Writes the node's output together with whatever else the node wrote, in one write to the top
 * frame.
 */
export function assignOutput(
  mem: RunMemory,
  node: GraphNode,
  output: JsonValue,
  extra?: Record<string, JsonValue>,
): RunMemory {
  const frame = top(mem);
  return withTop(mem, frameWith(frame, withOutput({ ...frame.vars, ...extra }, node, output)));
}

/** A node without a value is done (a transition node): its output is written in place when the run may (`Env.fresh`). */
export function leaveEmpty(env: Env, state: RunState, node: GraphNode): RunState {
  const fresh = env.fresh;
  if (fresh === undefined || state.mem.stack.base !== null) return leave(state, node, null);
  if (fresh.vars !== top(state.mem).vars) {
    const next = leave(state, node, null);
    fresh.vars = top(next.mem).vars;
    return next;
  }
  withOutput(fresh.vars, node, null);
  return moved(state, state.mem, { kind: "route", node: node.name, output: null, interject: false });
}

/** Writes the automatic output variables into `vars`, which must be a fresh object. */
export function withOutput(
  vars: Record<string, JsonValue>,
  node: GraphNode,
  output: JsonValue,
): Record<string, JsonValue> {
  vars[LAST_OUTPUT] = output;
  vars[LAST_STATE] = node.name;
  if (node.assign) setOwn(vars, node.assign, output);
  return vars;
}

/** The node is done: its output is assigned (with `extra`), and its transitions come next. */
export function leave(
  state: RunState,
  node: GraphNode,
  output: JsonValue,
  mem = state.mem,
  extra?: Record<string, JsonValue>,
): RunState {
  return moved(state, assignOutput(mem, node, output, extra), {
    kind: "route",
    node: node.name,
    output,
    interject: false,
  });
}
