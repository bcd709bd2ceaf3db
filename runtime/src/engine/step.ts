/**
 * The pure step: (program, state, input) -> (state, effect, event). No I/O, no clock, no
 * randomness; the same inputs give the same outputs, which is what makes turns replayable.
 * The loop in `agent/loop.ts` performs the effects and feeds their results back in.
 */
import { AgentError } from "../errors.js";
import { nodeOf, type Env } from "./env.js";
import { act, enter, generated } from "./actions.js";
import { evaluateOrHandOver, resumeEvaluation } from "./continuations.js";
import { acted, leaveCustom } from "./custom-action.js";
import { chosen, conditionChain, route, userArrived } from "./route.js";
import type { Handled, RunState, StepInput, StepResult } from "./state.js";
import { modelAnswered, nextCall, toolAnswered } from "./tool-calls.js";

export type { Env } from "./env.js";

export function step(env: Env, state: RunState, input: StepInput): StepResult {
  const handled = handle(env, state, input);
  return "evaluate" in handled ? evaluateOrHandOver(env, handled) : handled;
}

/** The phase's handler; what it hands on (an evaluation) is run by `step`. */
function handle(env: Env, state: RunState, input: StepInput): Handled {
  const phase = state.phase;
  switch (phase.kind) {
    case "enter":
      return enter(env, state, phase.node);
    case "act":
      expect(input, "continue");
      return act(env, state, nodeOf(env, phase.node));
    case "route":
      if (env.program.nodes.get(phase.node)?.custom) return leaveCustom(env, state, phase);
      return route(env, state, phase.node, phase.output, phase.interject);
    case "acting":
      return acted(env, state, phase, expect(input, "acted"));
    case "generating":
      if (phase.tools)
        return modelAnswered(env, state, { ...phase, tools: phase.tools }, expect(input, "tool_completed").completion);
      return generated(env, state, phase, expect(input, "completed").text);
    case "calling_tools":
      if (phase.running) return toolAnswered(env, state, phase, expect(input, "tool_result"));
      expect(input, "continue");
      return nextCall(env, state, phase.generating);
    case "choosing":
      return chosen(env, state, phase, expect(input, "chosen").index);
    case "testing":
      expect(input, "continue");
      return conditionChain(env, state, nodeOf(env, phase.node).node, phase.target, phase.candidates, phase.index);
    case "evaluating":
      return resumeEvaluation(env, state, phase.then, expect(input, "evaluated"));
    case "waiting":
      return userArrived(env, state, phase.node, expect(input, "user").text);
    case "finished":
      throw new AgentError("bad_input", "the run has already finished");
  }
}

function expect<K extends StepInput["kind"]>(input: StepInput, kind: K): Extract<StepInput, { kind: K }> {
  if (input.kind !== kind)
    throw new AgentError("bad_input", `the step expected a '${kind}' input, got '${input.kind}'`);
  return input as Extract<StepInput, { kind: K }>;
}
