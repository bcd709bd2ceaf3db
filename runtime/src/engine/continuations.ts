/**
 * Evaluations and what happens with their results: a code node's value, a call's arguments, a
 * `return <expr>`, a wildcard candidate's condition. The same continuation runs whether the
 * sandbox ran inside the step or the loop ran it with tools bound.
 */
import type { GraphNode, JsonValue } from "@autograms/graph";
import { argumentCountProblem } from "@autograms/graph";
import type { Frame } from "../memory/types.js";
import { push, withTopFrame, type RunMemory } from "./stack.js";
import { hasOwn, setOwn } from "../memory/own.js";
import { fail, nodeOf, type Env } from "./env.js";
import { evaluateNow, logEvents, type Evaluation } from "./evaluate.js";
import type { CodeToolCall } from "./code-tool-call.js";
import type { Writes } from "@autograms/sandbox";
import { withOutput } from "./output.js";
import { moved, result } from "./result.js";
import { returnFrom, take } from "./route.js";
import { frameWith, memoryWith, top, visibleVars } from "./scope.js";
import type { Continuation, EvaluationRequest, RunState, StepResult } from "./state.js";
import { assignChanges, changesOf, event } from "./trace-event.js";
import type { TraceEvent, VariableChange } from "../trace/events.js";

/** Runs a handler's evaluation in the step, or hands it to the loop when it calls tools or code runs in child processes. */
export function evaluateOrHandOver(
  env: Env,
  { state, evaluate: { node, code, then, what } }: EvaluationRequest,
): StepResult {
  const variables = visibleVars(state.mem.stack);
  if (env.program.isolated || env.program.usesTool(code)) {
    return result(moved(state, state.mem, { kind: "evaluating", then }), null, {
      kind: "evaluate",
      node: node.name,
      code,
      variables,
    });
  }
  return resumeEvaluation(env, state, then, evaluateNow(env, state.mem, node, code, variables, what));
}

export function resumeEvaluation(env: Env, state: RunState, then: Continuation, r: Evaluation): StepResult {
  if (r.logs === undefined && r.calls === undefined && (r.time === undefined || state.timed))
    return resumed(env, state, then, r);
  // The first read of the run's time is recorded (a replay gives it back), and so is each tool
  // the code called (a replay gives its result back instead of calling it); prints are reported as they are.
  const node = nodeOf(env, then.node).node;
  const before: TraceEvent[] = [];
  if (r.time !== undefined && !state.timed) {
    if (env.tracing) before.push(event(env, state.mem, node, { kind: "time", time: r.time })!);
    state = { ...state, timed: true };
  }
  if (r.calls !== undefined && env.tracing) before.push(...r.calls.map((c) => toolCallEvent(env, state.mem, node, c)));
  if (r.logs !== undefined && env.tracing) before.push(...logEvents(env, state.mem, node, r.logs));
  const out = resumed(env, state, then, r);
  if (before.length) out.before = before;
  return out;
}

function resumed(env: Env, state: RunState, then: Continuation, r: Evaluation): StepResult {
  const cn = nodeOf(env, then.node);
  const node = cn.node;
  const { mem, written } = absorb(
    env,
    state.mem,
    r.writes,
    then.kind === "code" ? { node, value: r.value } : undefined,
  );
  const changes = written ? changesOf(env, state.mem, written) : [];
  switch (then.kind) {
    case "code": {
      const value = r.value;
      const next = moved(state, mem, { kind: "route", node: node.name, output: value, interject: false });
      return result(
        next,
        env.tracing
          ? event(
              env,
              mem,
              node,
              { kind: "code", code: node.instruction ?? "", value },
              withAssigned(env, state.mem, node, value, changes),
            )
          : null,
      );
    }
    case "setup": {
      const next = moved(state, mem, { kind: "act", node: node.name });
      return result(
        next,
        env.tracing ? event(env, mem, node, { kind: "setup", code: node.setup ?? "" }, changes) : null,
      );
    }
    case "args":
      return enterFunction(env, moved(state, mem, state.phase), then.node, r.value, changes);
    case "return":
      return returnFrom(env, moved(state, mem, state.phase), node, then.target, r.value);
    case "condition":
      if (r.value)
        return take(env, moved(state, mem, state.phase), node, then.target, then.candidates[then.index]!, "condition");
      return result(
        moved(state, mem, {
          kind: "testing",
          node: node.name,
          target: then.target,
          candidates: then.candidates,
          index: then.index + 1,
        }),
      );
  }
}

/** A code node's changes: what its code wrote, then its `assign`. */
function withAssigned(
  env: Env,
  mem: RunMemory,
  node: GraphNode,
  value: JsonValue,
  changes: VariableChange[],
): VariableChange[] {
  if (!node.assign) return changes;
  return [...changes, ...assignChanges(env, mem, node, value)];
}

/**
 * Takes what an evaluation wrote into the top frame: nothing changes when it wrote nothing (a
 * condition, say) and the node has no output to keep. With one visible frame, the frame takes
 * every write; otherwise only the values that differ from what was visible are written (to the
 * top frame). A variable written `undefined` keeps its place as `null`, JSON's missing value: a
 * declared variable stays declared (`const hit = words.find(...)`, then `hit ?? ""` at the next
 * node), as a tool's `undefined` is `null` and `let x;` declares `x` as `null`.
 */
function absorb(
  env: Env,
  mem: RunMemory,
  writes: Writes | null,
  output?: { node: GraphNode; value: JsonValue },
): { mem: RunMemory; written: Record<string, JsonValue> | null } {
  if (writes === null && !output) return { mem, written: null };
  const stack = mem.stack;
  const frame = top(mem);
  const fresh = env.fresh;
  if (fresh !== undefined && fresh.vars === frame.vars && stack.base === null) {
    // Made by this run's last write to this frame and seen by nobody: written in place.
    if (writes !== null) write(frame.vars, writes);
    if (output) withOutput(frame.vars, output.node, output.value);
    return { mem, written: null };
  }
  let vars: Record<string, JsonValue>;
  let written: Record<string, JsonValue> | null = null;
  if (stack.base === null) {
    vars = { ...frame.vars };
    if (fresh !== undefined) fresh.vars = vars;
    if (writes !== null) {
      write(vars, writes);
      if (env.tracing) written = differing(frame.vars, writes);
    }
  } else {
    written = writes === null ? {} : differing(visibleVars(stack), writes);
    if (!output && !Object.keys(written).length) return { mem, written };
    vars = { ...frame.vars, ...written };
  }
  if (output) withOutput(vars, output.node, output.value);
  return { mem: memoryWith(mem, withTopFrame(stack, frameWith(frame, vars))), written };
}

function write(vars: Record<string, JsonValue>, writes: Writes): void {
  for (const [name, value] of writes) setOwn(vars, name, value ?? null);
}

/** The writes whose value is not the one `before` has. */
function differing(before: Record<string, JsonValue>, writes: Writes): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [name, written] of writes) {
    const value = written ?? null;
    if (!hasOwn(before, name) || value !== before[name]) setOwn(out, name, value);
  }
  return out;
}

/** Pushes the callee's frame: its parameters bound to the argument values; prompts per its kind. */
function enterFunction(
  env: Env,
  state: RunState,
  callNode: string,
  args: JsonValue,
  changes: ReturnType<typeof changesOf>,
): StepResult {
  const cn = nodeOf(env, callNode);
  const { name, info } = cn.call!;
  if (!Array.isArray(args))
    throw fail(env, cn.node, "bad_call", `the arguments of '${name}' did not evaluate to a list`);
  const problem = argumentCountProblem(name, info, args.length);
  if (problem) throw fail(env, cn.node, "bad_call", problem);
  const vars: Record<string, JsonValue> = {};
  info.params.forEach((p, i) => {
    vars[p] = i < args.length ? args[i]! : structuredClone(info.defaults?.[p] ?? null);
  });
  const caller = top(state.mem);
  const config = env.program.config;
  if (state.mem.stack.height > env.program.maxCallDepth) {
    throw fail(
      env,
      cn.node,
      "recursion_limit",
      `calling '${name}' would run ${env.program.maxCallDepth + 1} function calls deep, past the limit of ${env.program.maxCallDepth} (runaway recursion? raise limits.maxCallDepth if it is meant)`,
    );
  }
  const local = info.kind === "local_function";
  const callee: Frame = {
    scope: info.kind,
    function: name,
    node: "",
    id: "",
    vars,
    turns: [],
    prompt: local ? config.defaultPrompt : caller.prompt,
    userPrompt: local ? config.defaultUserPrompt : caller.userPrompt,
  };
  if (state.pending !== null && info.kind !== "global_function") callee.carried = state.pending;
  const stack = push(
    withTopFrame(state.mem.stack, frameWith(caller, caller.vars, caller.turns, callNode, cn.id)),
    callee,
  );
  const mem = memoryWith(state.mem, stack);
  const next = moved(state, mem, { kind: "enter", node: info.entry });
  return result(next, env.tracing ? event(env, mem, cn.node, { kind: "call", function: name, args }, changes) : null);
}

function toolCallEvent(env: Env, mem: RunMemory, node: GraphNode, c: CodeToolCall): TraceEvent {
  return event(env, mem, node, {
    kind: "tool_call",
    tool: c.tool,
    id: "",
    arguments: JSON.stringify(c.args),
    round: 0,
    ...(c.error !== undefined ? { error: c.error } : { result: c.result ?? null }),
  })!;
}
