/**
 * Leaving a node (docs/semantics.md#transitions): interjections after a user message, then the node's own
 * transitions (one, or the model's choice among several), then the target worked out:
 * `$var`, `quit`, `return`/`return <expr>`, `X.n`, `X.*`, or a node name.
 */
import type { GraphNode, JsonValue } from "@autograms/graph";
import { candidateName, LAST_OUTPUT, LAST_USER_REPLY, parseTarget, type TransitionTarget } from "@autograms/graph";
import { withTopFrame, type RunMemory } from "./stack.js";
import { visitsOf } from "../memory/own.js";
import { appendTurns } from "../memory/turns.js";
import type { Decision, VariableChange } from "../trace/events.js";
import { fail, nodeOf, type Env } from "./env.js";
import { assignOutput } from "./output.js";
import type { CompiledNode } from "./program.js";
import { interjectionQuestion, questionContext, transitionQuestion } from "./question.js";
import { render } from "./render.js";
import { evaluation, moved, result } from "./result.js";
import { frameWith, lookupVar, memoryWith, top, visibleTurns, writeVars } from "./scope.js";
import type { Handled, Phase, RunState, StepResult } from "./state.js";
import { valueText } from "./template.js";
import { changesOf, event } from "./trace-event.js";

/** A user message arrived at the chat node the conversation waits at. */
export function userArrived(env: Env, state: RunState, name: string, text: string): StepResult {
  const node = nodeOf(env, name).node;
  const changes = changesOf(env, state.mem, { [LAST_USER_REPLY]: text });
  const mem = writeVars(state.mem, { [LAST_USER_REPLY]: text });
  const output = lookupVar(mem.stack, LAST_OUTPUT) ?? null;
  const next = moved(state, mem, { kind: "route", node: name, output, interject: true }, text, []);
  return result(next, env.tracing ? event(env, mem, node, { kind: "user", text }, changes) : null);
}

export function route(env: Env, state: RunState, name: string, output: JsonValue, interject: boolean): Handled {
  const cn = nodeOf(env, name);
  const program = env.program;
  if (interject && program.interjections.length) {
    const q = interjectionQuestion({
      examples: program.interjections.flatMap((c) =>
        c.node.example_interjection === undefined ? [] : [c.node.example_interjection],
      ),
      context: questionContext(
        visibleTurns(state.mem.stack),
        state.pending ?? "",
        1,
        program.config,
        (n) => program.nodes.get(n)?.node,
      ),
      conditions: program.interjections.map((c) => c.node.condition_interjection!),
      config: program.config,
    });
    return choose(state, name, "interjection", q.prompt, q.choices, output);
  }
  return classify(env, state, cn, output);
}

function choose(
  state: RunState,
  node: string,
  purpose: "transition" | "interjection",
  prompt: string,
  choices: string[],
  output: JsonValue,
): StepResult {
  const phase: Phase = { kind: "choosing", node, purpose, prompt, choices, output };
  return result(moved(state, state.mem, phase), null, { kind: "choose", node, prompt, choices });
}

function classify(env: Env, state: RunState, cn: CompiledNode, output: JsonValue): Handled {
  const node = cn.node;
  if (node.transitions.length === 1) return goto(env, state, node.name, node.transitions[0]!, output);
  const config = env.program.config;
  const q = transitionQuestion({
    preamble: node.question_prompt ?? config.defaultQuestionPrompt,
    context: questionContext(
      visibleTurns(state.mem.stack),
      state.pending ?? "",
      node.transition_context ?? config.defaultTransitionContext,
      config,
      (n) => env.program.nodes.get(n)?.node,
    ),
    question: render(env, state, node, cn.question, "transition_question"),
    choices: node.transition_choices!,
    config,
  });
  return choose(state, node.name, "transition", q.prompt, q.choices, output);
}

export function chosen(env: Env, state: RunState, phase: Extract<Phase, { kind: "choosing" }>, index: number): Handled {
  const decision: Decision = { purpose: phase.purpose, prompt: phase.prompt, choices: phase.choices, chosen: index };
  const next = moved(state, state.mem, state.phase, state.pending, [...state.decisions, decision]);
  const cn = nodeOf(env, phase.node);
  if (phase.purpose === "interjection") {
    const hit = env.program.interjections[index];
    return hit ? goto(env, next, phase.node, hit.node.name, phase.output) : classify(env, next, cn, phase.output);
  }
  return goto(env, next, phase.node, cn.node.transitions[index]!, phase.output);
}

/**
 * The graph's targets, parsed once: a loop takes the same transitions at every iteration. Only
 * targets written in a graph are kept (a variable's value is parsed each time it is read).
 */
const writtenTargets = new Map<string, TransitionTarget>();
const WRITTEN_TARGETS_MAX = 10_000;

function parsedWritten(target: string): TransitionTarget {
  let parsed = writtenTargets.get(target);
  if (parsed === undefined) {
    if (writtenTargets.size >= WRITTEN_TARGETS_MAX) writtenTargets.clear();
    writtenTargets.set(target, (parsed = Object.freeze(parseTarget(target))));
  }
  return parsed;
}

export function goto(env: Env, state: RunState, from: string, target: string, output: JsonValue): Handled {
  const program = env.program;
  const node = nodeOf(env, from).node;
  const written = parsedWritten(target);
  const to = written.kind === "variable" ? variableValue(env, state, node, target, written.variable) : target;
  // A variable names the target; a name in it that starts with `$` is not looked up again.
  const read = written.kind === "variable" ? parseTarget(to) : written;
  const parsed: TransitionTarget = read.kind === "variable" ? { kind: "node", name: to } : read;
  const resolved = written.kind === "variable" ? "variable" : "name";
  switch (parsed.kind) {
    case "quit": {
      const mem = state.mode === "reply" ? memoryWith(state.mem, state.mem.stack, state.mem.visits, true) : state.mem;
      const next = moved(state, mem, { kind: "finished", value: null }, state.pending, []);
      return result(next, env.tracing ? event(env, mem, node, { kind: "quit", decisions: state.decisions }) : null, {
        kind: "finish",
        value: null,
      });
    }
    case "return":
      if (state.mem.stack.height < 2)
        throw fail(env, node, "return_outside_function", `transition '${target}' returns, but no function is running`);
      if (parsed.expr === undefined) return returnFrom(env, state, node, target, output);
      return evaluation(state, node, parsed.expr, { kind: "return", node: from, target }, "return expression");
    case "numbered": {
      const list = series(env, node, written, target, program.numbered(parsed.base));
      let k = 0;
      while (visitsOf(state.mem.visits, list[k]!) > 0 && k + 1 < list.length) k++;
      return take(env, state, node, target, list[k]!, "visit");
    }
    case "lettered": {
      const list = series(env, node, written, target, program.lettered(parsed.base));
      if (list.some((c) => program.nodes.get(c)!.node.boolean_condition !== undefined))
        return conditionChain(env, state, node, target, list, 0);
      return take(env, state, node, target, byHistory(env, state.mem.visits, list), "history");
    }
    case "node":
      if (!program.nodes.has(to))
        throw fail(
          env,
          node,
          "bad_transition",
          `transition '${target}' leads to '${to}', which is not a node of the graph`,
        );
      return take(env, state, node, target, to, resolved);
  }
}

function variableValue(env: Env, state: RunState, node: GraphNode, target: string, variable: string): string {
  const value = lookupVar(state.mem.stack, variable);
  if (value === undefined || value === null)
    throw fail(env, node, "undefined_variable", `transition '${target}': variable '${variable}' is undefined`);
  return valueText(value);
}

function series(env: Env, node: GraphNode, written: TransitionTarget, target: string, list: string[]): string[] {
  if (!list.length) {
    const first =
      written.kind === "lettered" || written.kind === "numbered"
        ? `'${candidateName(written.kind, written.base, 0)}'`
        : "the target";
    throw fail(env, node, "bad_transition", `transition '${target}': ${first} does not exist`);
  }
  return list;
}

/** Goes to `to`, reporting how it was reached. */
export function take(
  env: Env,
  state: RunState,
  from: GraphNode,
  target: string,
  to: string,
  resolved: "name" | "variable" | "condition" | "history" | "visit",
): StepResult {
  const ev = env.tracing
    ? event(env, state.mem, from, { kind: "transition", target, to, resolved, decisions: state.decisions })
    : null;
  return result(moved(state, state.mem, { kind: "enter", node: to }, state.pending, []), ev);
}

/** The first candidate whose condition holds; a candidate without a condition always holds. */
export function conditionChain(
  env: Env,
  state: RunState,
  from: GraphNode,
  target: string,
  candidates: string[],
  index: number,
): Handled {
  if (index >= candidates.length) {
    throw fail(
      env,
      from,
      "no_condition_held",
      `transition '${target}': none of the conditions of ${candidates.join(", ")} holds`,
    );
  }
  const candidate = nodeOf(env, candidates[index]!).node;
  if (candidate.boolean_condition === undefined) return take(env, state, from, target, candidate.name, "condition");
  return evaluation(
    state,
    candidate,
    candidate.boolean_condition,
    { kind: "condition", node: from.name, target, candidates, index },
    "boolean_condition",
  );
}

/** The original's state-history scores; ties go to the earliest letter. */
function byHistory(env: Env, visits: Record<string, number>, candidates: string[]): string {
  const seen = (s: string) => visitsOf(visits, s) > 0;
  let best = candidates[0]!;
  let bestScore = -Infinity;
  for (const name of candidates) {
    const n = env.program.nodes.get(name)!.node;
    let score = 0;
    if (n.prerequisite_states?.length && !n.prerequisite_states.some(seen)) score -= 10000;
    if (n.blocking_states?.some(seen)) score -= 10000;
    for (const s of n.up_weight_states ?? []) score += visitsOf(visits, s);
    for (const s of n.down_weight_states ?? []) score -= visitsOf(visits, s);
    if (score > bestScore) {
      best = name;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Pops the callee. `local_function` and `function` frames vanish with their variables and turns;
 * a `global_function` hands its variables, turns and prompts to its caller. The calling node
 * takes the value as its output and follows its own transitions.
 */
export function returnFrom(env: Env, state: RunState, from: GraphNode, _target: string, value: JsonValue): StepResult {
  const stack = state.mem.stack;
  const callee = stack.frame;
  const below = stack.below!;
  const caller = below.frame;
  const fn = callee.function ?? "main";
  if (state.mode === "call" && stack.height === 2) {
    const ev = env.tracing
      ? event(env, state.mem, from, { kind: "return", function: fn, value, to: "", decisions: state.decisions })
      : null;
    return result(moved(state, state.mem, { kind: "finished", value }, state.pending, []), ev, {
      kind: "finish",
      value,
    });
  }
  let back = caller;
  if (callee.scope === "global_function") {
    back = frameWith(caller, { ...caller.vars, ...callee.vars }, appendTurns(caller.turns, callee.turns));
    back.prompt = callee.prompt;
    back.userPrompt = callee.userPrompt;
  }
  const pending = state.pending === null && callee.carried !== undefined ? callee.carried : state.pending;
  const callNode = nodeOf(env, caller.node).node;
  const mem = assignOutput(memoryWith(state.mem, withTopFrame(below, back)), callNode, value);
  const ev = env.tracing
    ? event(
        env,
        state.mem,
        from,
        { kind: "return", function: fn, value, to: caller.node, decisions: state.decisions },
        returnChanges(env, state.mem, callNode, value),
      )
    : null;
  const next = moved(state, mem, { kind: "route", node: caller.node, output: value, interject: false }, pending, []);
  return result(next, ev);
}

/** What a return writes in the caller's scope: a global function's variables, then the calling node's `assign`. */
function returnChanges(env: Env, mem: RunMemory, callNode: GraphNode, value: JsonValue): VariableChange[] {
  const callee = top(mem);
  const caller = memoryWith(mem, mem.stack.below!);
  return changesOf(env, caller, {
    ...(callee.scope === "global_function" ? callee.vars : {}),
    ...(callNode.assign ? { [callNode.assign]: value } : {}),
  });
}
