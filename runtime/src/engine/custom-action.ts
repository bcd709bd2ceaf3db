/**
 * The nodes of custom actions, on the step's side. The step never runs a hook: it fills in the
 * node's fields, asks the loop to run the hook (an `action` effect, as a tool call is one), and
 * applies what came back, the same way a built-in node applies a model's answer: a reply ends the
 * turn, a thought is a turn, an output is assigned, a target is followed.
 */
import type { JsonValue } from "../graph/types.js";
import { runHook } from "./action-hook.js";
import { fail, nodeOf, type Env } from "./env.js";
import { finishTurn } from "./finish-turn.js";
import { assignOutput, leave } from "./output.js";
import type { CompiledNode } from "./program.js";
import { moved, result } from "./result.js";
import { goto, route } from "./route.js";
import type { Handled, Phase, RunState, StepInput, StepResult } from "./state.js";
import { changesOf, event } from "./trace-event.js";

type Acting = Extract<Phase, { kind: "acting" }>;
type Routing = Extract<Phase, { kind: "route" }>;

/** Leaving a custom action's node: its output hook, then its transition hook, then the usual way. */
export function leaveCustom(env: Env, state: RunState, phase: Routing): Handled {
  const cn = nodeOf(env, phase.node);
  const hooks = cn.custom!.hooks;
  if (typeof phase.hooked === "object") {
    if (phase.hooked.target !== null) return goto(env, state, phase.node, phase.hooked.target, phase.output);
    return route(env, state, phase.node, phase.output, phase.interject);
  }
  if (phase.hooked === undefined && hooks.output) return runHook(env, state, cn, "output", phase.output, phase.interject);
  if (hooks.transition) return runHook(env, state, cn, "transition", phase.output, phase.interject);
  return route(env, state, phase.node, phase.output, phase.interject);
}

/** A hook's value came back (already copied as plain data by the loop): apply it. */
export function acted(env: Env, state: RunState, phase: Acting, input: Extract<StepInput, { kind: "acted" }>): StepResult {
  const cn = nodeOf(env, phase.node);
  const node = cn.node;
  const action = cn.custom!.action;
  const what = `action '${action}': its ${phase.hook} hook`;
  const value = input.value;
  const calls = input.calls;
  switch (phase.hook) {
    case "output": {
      const changes = changesOf(env, state.mem, node.assign ? { [node.assign]: value } : {});
      const mem = assignOutput(state.mem, node, value);
      const next = moved(state, mem, { kind: "route", node: node.name, output: value, interject: phase.interject, hooked: "output" });
      return result(next, event(env, mem, node, { kind: "custom", hook: "output", calls, output: value }, changes));
    }
    case "transition": {
      if (value !== null && typeof value !== "string") throw fail(env, node, "bad_transition", `${what} returned ${describe(value)}, not a transition`);
      if (value !== null && !node.transitions.includes(value)) {
        throw fail(env, node, "bad_transition", `${what} chose '${value}', which is not one of the node's transitions (${node.transitions.join(", ")})`);
      }
      const next = moved(state, state.mem, { kind: "route", node: node.name, output: phase.output, interject: phase.interject, hooked: { target: value } });
      return result(next, event(env, state.mem, node, { kind: "custom", hook: "transition", calls, target: value }));
    }
    case "instruction":
      return instructed(env, state, cn, phase.instruction, value, calls, what);
  }
}

const RESULT_KEYS = new Set(["reply", "thought", "output", "instruction"]);

function instructed(env: Env, state: RunState, cn: CompiledNode, rendered: string, value: JsonValue, calls: Extract<StepInput, { kind: "acted" }>["calls"], what: string): StepResult {
  const node = cn.node;
  if (value !== null && (typeof value !== "object" || Array.isArray(value))) {
    throw fail(env, node, "action_failed", `${what} returned ${describe(value)}: return { reply }, { thought }, { output } or nothing`);
  }
  const r = value ?? {};
  const unknown = Object.keys(r).filter((k) => !RESULT_KEYS.has(k));
  if (unknown.length) throw fail(env, node, "action_failed", `${what} returned ${unknown.map((k) => `'${k}'`).join(", ")}: a result has reply or thought, output and instruction`);
  for (const key of ["reply", "thought", "instruction"] as const) {
    if (r[key] !== undefined && typeof r[key] !== "string") throw fail(env, node, "action_failed", `${what} returned a ${key} that is ${describe(r[key]!)}, not a string`);
  }
  if (r.reply !== undefined && r.thought !== undefined) throw fail(env, node, "action_failed", `${what} returned both a reply and a thought`);
  const reply = r.reply as string | undefined;
  const thought = r.thought as string | undefined;
  const text = reply ?? thought;
  const output = r.output !== undefined ? r.output : (text ?? null);
  const body = { kind: "custom" as const, hook: "instruction" as const, calls, ...(reply !== undefined && { reply }), ...(thought !== undefined && { thought }), output };
  if (text === undefined) {
    const next = leave(state, node, output);
    return result(next, event(env, next.mem, node, body, changesOf(env, state.mem, node.assign ? { [node.assign]: output } : {})));
  }
  if (reply !== undefined && state.mode === "call") {
    throw fail(env, node, "chat_in_call", `agent.call() reached a node of action '${cn.custom!.action}' that replied; a function run by call() may not talk to the user`);
  }
  // As built-in nodes keep theirs: a thought's instruction always, a reply's when no user message came with it.
  const instruction = typeof r.instruction === "string" ? r.instruction
    : state.pending && reply !== undefined ? undefined
    : rendered || undefined;
  return finishTurn(env, state, cn, text, output, instruction, (mem, changes) => event(env, mem, node, body, changes), reply !== undefined);
}

function describe(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
