/** The step's result and the state it moves to, each built in one shape. */
import type { GraphNode } from "@autograms/graph";
import type { Decision, TraceEvent } from "../trace/events.js";
import type { RunMemory } from "./stack.js";
import type { Continuation, EvaluationRequest, Phase, RunState, StepResult } from "./state.js";

export function result(state: RunState, ev: TraceEvent | null = null, effect: StepResult["effect"] = null): StepResult {
  return { state, effect, event: ev };
}

/** `code` evaluated at `node` (`what` names it in errors), then `then` with its value. */
export function evaluation(
  state: RunState,
  node: GraphNode,
  code: string,
  then: Continuation,
  what: string,
): EvaluationRequest {
  return { state, evaluate: { node, code, then, what } };
}

const NO_DECISIONS: Decision[] = [];
Object.freeze(NO_DECISIONS);

/** The state after a step, in one shape (see `memoryWith`). */
export function moved(
  state: RunState,
  mem: RunMemory,
  phase: Phase,
  pending = state.pending,
  decisions: Decision[] = state.decisions,
  steps = state.steps,
): RunState {
  return {
    mem,
    phase,
    pending,
    mode: state.mode,
    steps,
    decisions: decisions.length ? decisions : NO_DECISIONS,
    timed: state.timed,
  };
}
