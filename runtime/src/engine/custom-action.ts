/**
 * The nodes of custom actions, on the step's side. The step never runs a hook: it fills in the
 * node's fields, asks the loop to run the hook (an `action` effect, as a tool call is one), and
 * applies what came back, the same way a built-in node applies a model's answer: a reply ends the
 * turn, a thought is a turn, an output is assigned, a target is followed.
 */
import { type JsonValue, LAST_USER_REPLY } from "@autograms/graph";
import { runHook } from "./action-hook.js";
import { fail, nodeOf, type Env } from "./env.js";
import { finishTurn, withoutCarried } from "./finish-turn.js";
import { assignOutput, leave } from "./output.js";
import type { CompiledNode } from "./program.js";
import { moved, result } from "./result.js";
import { goto, route } from "./route.js";
import { frameWith, top, withTop } from "./scope.js";
import type { RunMemory } from "./stack.js";
import type { Frame } from "../memory/types.js";
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
    if (cn.node.transitions.length > 1 && cn.node.transition_question === undefined) {
      throw fail(
        env,
        cn.node,
        "bad_transition",
        `action '${cn.custom!.action}': its transition hook chose none of the ${cn.node.transitions.length} transitions, and the node has no transition_question for the model to choose with`,
      );
    }
    return route(env, state, phase.node, phase.output, phase.interject);
  }
  if (phase.hooked === undefined && hooks.output)
    return runHook(env, state, cn, "output", phase.output, phase.interject);
  if (hooks.transition) return runHook(env, state, cn, "transition", phase.output, phase.interject);
  return route(env, state, phase.node, phase.output, phase.interject);
}

/** A hook's value came back (already copied as plain data by the loop): apply it. */
export function acted(
  env: Env,
  state: RunState,
  phase: Acting,
  input: Extract<StepInput, { kind: "acted" }>,
): StepResult {
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
      const next = moved(state, mem, {
        kind: "route",
        node: node.name,
        output: value,
        interject: phase.interject,
        hooked: "output",
      });
      return result(next, event(env, mem, node, { kind: "custom", hook: "output", calls, output: value }, changes));
    }
    case "transition": {
      if (value !== null && typeof value !== "string")
        throw fail(env, node, "bad_transition", `${what} returned ${describe(value)}, not a transition`);
      if (value !== null && !node.transitions.includes(value)) {
        throw fail(
          env,
          node,
          "bad_transition",
          `${what} chose '${value}', which is not one of the node's transitions (${node.transitions.join(", ")})`,
        );
      }
      const next = moved(state, state.mem, {
        kind: "route",
        node: node.name,
        output: phase.output,
        interject: phase.interject,
        hooked: { target: value },
      });
      return result(next, event(env, state.mem, node, { kind: "custom", hook: "transition", calls, target: value }));
    }
    case "instruction":
      return instructed(env, state, cn, phase.instruction, value, calls, what);
  }
}

const RESULT_KEYS = new Set([
  "reply",
  "thought",
  "output",
  "instruction",
  "retain",
  "setPrompt",
  "setUserPrompt",
  "assign",
  "consumeReply",
]);

function instructed(
  env: Env,
  state: RunState,
  cn: CompiledNode,
  rendered: string,
  value: JsonValue,
  calls: Extract<StepInput, { kind: "acted" }>["calls"],
  what: string,
): StepResult {
  const node = cn.node;
  if (value !== null && (typeof value !== "object" || Array.isArray(value))) {
    throw fail(
      env,
      node,
      "action_failed",
      `${what} returned ${describe(value)}: return { reply }, { thought }, { output } or nothing`,
    );
  }
  const r = value ?? {};
  const unknown = Object.keys(r).filter((k) => !RESULT_KEYS.has(k));
  if (unknown.length)
    throw fail(
      env,
      node,
      "action_failed",
      `${what} returned ${unknown.map((k) => `'${k}'`).join(", ")}: a result has reply or thought, output, instruction, retain, setPrompt, setUserPrompt, assign and consumeReply`,
    );
  for (const key of ["reply", "thought", "instruction"] as const) {
    if (r[key] !== undefined && typeof r[key] !== "string")
      throw fail(env, node, "action_failed", `${what} returned a ${key} that is ${describe(r[key]!)}, not a string`);
  }
  if (r.reply !== undefined && r.thought !== undefined)
    throw fail(env, node, "action_failed", `${what} returned both a reply and a thought`);
  if (r.retain !== undefined && typeof r.retain !== "boolean")
    throw fail(env, node, "action_failed", `${what} returned a retain that is ${describe(r.retain)}, not a boolean`);
  if (r.retain === false && r.instruction !== undefined)
    throw fail(env, node, "action_failed", `${what} returned an instruction to keep and retain: false`);
  const consumes = consumesReply(env, cn, r, what);
  const before = state.mem;
  state = { ...state, mem: withEffects(env, state.mem, cn, r, what) };
  const effectChanges = changesOf(env, before, (r.assign ?? {}) as Record<string, JsonValue>);
  const reply = r.reply as string | undefined;
  const thought = r.thought as string | undefined;
  const text = reply ?? thought;
  const output = r.output !== undefined ? r.output : (text ?? null);
  const consumed = consumes ? state.pending : null;
  // What the result said beyond its text (effects, output, retain, ...): a replay gives the whole result back from this.
  const { reply: _reply, thought: _thought, ...rest } = r;
  const body = {
    kind: "custom" as const,
    hook: "instruction" as const,
    calls,
    ...(reply !== undefined && { reply }),
    ...(thought !== undefined && { thought }),
    ...(consumed !== null && { consumed }),
    output,
    ...(Object.keys(rest).length > 0 && { result: rest }),
  };
  if (text === undefined) {
    // Taken as read: no turn holds it, and no function gives it back to its caller.
    const extra: Record<string, JsonValue> = consumed !== null ? { [LAST_USER_REPLY]: consumed } : {};
    const mem = consumed !== null ? withoutCarried(state.mem) : state.mem;
    const next = leave({ ...state, pending: consumes ? null : state.pending }, node, output, mem, extra);
    const changes = changesOf(env, state.mem, node.assign ? { ...extra, [node.assign]: output } : extra);
    return result(next, event(env, next.mem, node, body, [...effectChanges, ...changes]));
  }
  if (reply !== undefined && state.mode === "call") {
    throw fail(
      env,
      node,
      "chat_in_call",
      `agent.call() reached a node of action '${cn.custom!.action}' that replied; a function run by call() may not talk to the user`,
    );
  }
  // As built-in nodes keep theirs (a thought's instruction always, a reply's when no user message
  // came with it), unless the result says whether to retain it.
  const instruction =
    typeof r.instruction === "string"
      ? r.instruction
      : r.retain === false || (r.retain !== true && state.pending && reply !== undefined)
        ? undefined
        : rendered || undefined;
  return finishTurn(
    env,
    state,
    cn,
    text,
    output,
    instruction,
    (mem, changes) => event(env, mem, node, body, [...effectChanges, ...changes]),
    reply !== undefined,
  );
}

/**
 * `consumeReply: true`: the original's node class that returns `new_user_reply=""` without a turn.
 * Only without a reply or thought, which consume the message anyway (as a turn).
 */
function consumesReply(env: Env, cn: CompiledNode, r: Record<string, JsonValue>, what: string): boolean {
  const node = cn.node;
  if (r.consumeReply === undefined || r.consumeReply === false) return false;
  if (r.consumeReply !== true)
    throw fail(
      env,
      node,
      "action_failed",
      `${what} returned a consumeReply that is ${describe(r.consumeReply)}, not a boolean`,
    );
  if (cn.custom!.effects.consumeReply !== true)
    throw fail(
      env,
      node,
      "action_failed",
      `${what} returned consumeReply, which the action does not declare (effects: { consumeReply: true })`,
    );
  if (r.reply !== undefined || r.thought !== undefined)
    throw fail(
      env,
      node,
      "action_failed",
      `${what} returned consumeReply with a ${r.reply !== undefined ? "reply" : "thought"}, which consumes the user's message already (as its turn)`,
    );
  return true;
}

/**
 * The result's declared effects on the scope (the original's prompt nodes, and nodes writing
 * variables other than their output): the prompt, the user prompt, variables by name. Each
 * only if the action declares it, so what a node may change is known from its action.
 */
function withEffects(
  env: Env,
  mem: RunMemory,
  cn: CompiledNode,
  r: Record<string, JsonValue>,
  what: string,
): RunMemory {
  const declared = cn.custom!.effects;
  const node = cn.node;
  const frame = top(mem);
  let updated: Frame | undefined;
  for (const [key, field] of [
    ["setPrompt", "prompt"],
    ["setUserPrompt", "userPrompt"],
  ] as const) {
    if (r[key] === undefined) continue;
    if (declared[key] !== true)
      throw fail(
        env,
        node,
        "action_failed",
        `${what} returned ${key}, which the action does not declare (effects: { ${key}: true })`,
      );
    if (typeof r[key] !== "string")
      throw fail(env, node, "action_failed", `${what} returned a ${key} that is ${describe(r[key]!)}, not a string`);
    updated ??= frameWith(frame, frame.vars);
    updated[field] = r[key] as string;
  }
  if (r.assign !== undefined) {
    if (r.assign === null || typeof r.assign !== "object" || Array.isArray(r.assign))
      throw fail(
        env,
        node,
        "action_failed",
        `${what} returned an assign that is ${describe(r.assign)}, not an object of variables`,
      );
    const allowed = declared.assign ?? [];
    const undeclared = Object.keys(r.assign).filter((name) => !allowed.includes(name));
    if (undeclared.length) {
      throw fail(
        env,
        node,
        "action_failed",
        `${what} assigned ${undeclared.map((n) => `'${n}'`).join(", ")}, which the action does not declare (effects.assign: [${allowed.map((n) => `'${n}'`).join(", ")}])`,
      );
    }
    updated = frameWith(updated ?? frame, { ...frame.vars, ...(r.assign as Record<string, JsonValue>) });
  }
  return updated ? withTop(mem, updated) : mem;
}

function describe(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
