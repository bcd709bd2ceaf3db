/**
 * Helpers every part of the step shares: located errors, trace events, automatic variables.
 */
import type { GraphNode, JsonValue } from "../graph/types.js";
import { AgentError, type AgentErrorCode } from "../errors.js";
import { toFrames, type RunMemory } from "./stack.js";
import { setOwn } from "../memory/own.js";
import type { Decision, TraceEvent, VariableChange } from "../trace/events.js";
import type { CompiledNode, Program } from "./program.js";
import { frameWith, lookupVar, top, withTop } from "./scope.js";
import type { Phase, RunState, StepResult } from "./state.js";
import type { SandboxOptions } from "../sandbox/index.js";

export interface Env {
  program: Program;
  /** Build trace events (skipped entirely when nobody listens). */
  tracing: boolean;
  /**
   * The options of every evaluation in this run: the program's limits and the run's time, which
   * `Date.now()` returns (one value per run, so that a replay given the recorded time is exact).
   * Without them, the limits alone and the host's clock.
   */
  sandbox?: SandboxOptions;
}

export function nodeOf(env: Env, name: string): CompiledNode {
  const cn = env.program.nodes.get(name);
  if (!cn) throw new AgentError("bad_transition", `no node named '${name}' in the graph`);
  return cn;
}

export function fail(env: Env, node: GraphNode, code: AgentErrorCode, detail: string, cause?: unknown): AgentError {
  return new AgentError(code, detail, { node: node.name, loc: node.loc, file: env.program.file, cause });
}

type Distribute<T> = T extends unknown ? Omit<T, "node" | "loc" | "action" | "stack" | "changes"> : never;
export type EventBody = Distribute<TraceEvent>;

export function event(env: Env, mem: RunMemory, node: GraphNode, body: EventBody, changes: VariableChange[] = []): TraceEvent | null {
  if (!env.tracing) return null;
  const custom = env.program.nodes.get(node.name)?.custom;
  return {
    node: node.name, loc: node.loc ?? null, action: node.action, ...(custom && { base: env.program.nodes.get(node.name)!.as }),
    stack: toFrames(mem.stack).map((f) => f.function ?? "main"), changes, ...body,
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

/**
 * A node's output goes to `_last_variable_output` (and `assign`), together with `_last_state`
 * and whatever else the node wrote, in one write to the top frame.
 */
export function assignOutput(mem: RunMemory, node: GraphNode, output: JsonValue, extra?: Record<string, JsonValue>): RunMemory {
  const frame = top(mem);
  return withTop(mem, frameWith(frame, withOutput({ ...frame.vars, ...extra }, node, output)));
}

/** Writes the automatic output variables into `vars`, which must be a fresh object. */
export function withOutput(vars: Record<string, JsonValue>, node: GraphNode, output: JsonValue): Record<string, JsonValue> {
  vars._last_variable_output = output;
  vars._last_state = node.name;
  if (node.assign) setOwn(vars, node.assign, output);
  return vars;
}

export function result(state: RunState, ev: TraceEvent | null = null, effect: StepResult["effect"] = null): StepResult {
  return { state, effect, event: ev };
}

const NO_DECISIONS: Decision[] = [];
Object.freeze(NO_DECISIONS);

/** The state after a step, in one shape (see `memoryWith`). */
export function moved(state: RunState, mem: RunMemory, phase: Phase, pending = state.pending, decisions: Decision[] = state.decisions, steps = state.steps): RunState {
  return { mem, phase, pending, mode: state.mode, steps, decisions: decisions.length ? decisions : NO_DECISIONS, timed: state.timed };
}
