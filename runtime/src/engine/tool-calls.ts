/**
 * Native tool calls at a chat or thought node that offers tools: the model answers with calls,
 * each call runs (one `tool` effect at a time, in the model's order) and its result goes back as
 * a tool message, until the model answers in text. What goes wrong with a call (an unknown tool,
 * arguments that are not a JSON object, a tool that throws) is told to the model as the call's
 * result, so it can correct itself; only running out of rounds fails the node.
 */
import type { JsonValue } from "@autograms/graph";
import type { ToolCall, ToolCompletion } from "../model/types.js";
import { generated } from "./actions.js";
import { fail, nodeOf, type Env } from "./env.js";
import { moved, result } from "./result.js";
import type { GeneratingPhase, Phase, RunState, StepInput, StepResult, ToolRun } from "./state.js";
import { toolRequest } from "./tool-request.js";
import { event } from "./trace-event.js";

type ToolPhase = GeneratingPhase & { tools: ToolRun };
type Outcome = { ok: true; value: JsonValue } | { ok: false; error: string };

/** The model answered: text ends the node as any generation does; calls are run first. */
export function modelAnswered(env: Env, state: RunState, phase: ToolPhase, completion: ToolCompletion): StepResult {
  if (completion.toolCalls.length === 0) return generated(env, state, phase, completion.text);
  const run = phase.tools;
  const max = env.program.config.maxToolRounds;
  if (run.rounds >= max) {
    throw fail(
      env,
      nodeOf(env, phase.node).node,
      "tool_limit",
      `the model still called tools (${completion.toolCalls.map((c) => c.name).join(", ")}) after ${max} round${max === 1 ? "" : "s"} of tool calls (maxToolRounds) and being told to answer`,
    );
  }
  const messages = [
    ...run.messages,
    { role: "assistant" as const, content: completion.text || null, toolCalls: completion.toolCalls },
  ];
  return nextCall(env, state, { ...phase, tools: { messages, rounds: run.rounds + 1, queue: completion.toolCalls } });
}

/** The next call of the round runs; with none left, the model gets the results. */
export function nextCall(env: Env, state: RunState, phase: ToolPhase): StepResult {
  const cn = nodeOf(env, phase.node);
  const [call, ...queue] = phase.tools.queue;
  if (call === undefined) {
    const asking: Phase = { ...phase, tools: { ...phase.tools, queue: [] } };
    return result(moved(state, state.mem, asking), null, toolRequest(env, cn, phase.tools));
  }
  const rest: ToolPhase = { ...phase, tools: { ...phase.tools, queue } };
  const tool = cn.tools!.byModelName.get(call.name);
  if (tool === undefined) {
    const names = [...cn.tools!.byModelName.keys()].join(", ");
    return record(env, state, rest, call, {
      ok: false,
      error: `there is no tool named '${call.name}'; the tools are: ${names}`,
    });
  }
  const args = readArguments(call.arguments);
  if (!args.ok) return record(env, state, rest, call, args);
  const running: Phase = { kind: "calling_tools", generating: rest, running: call };
  return result(moved(state, state.mem, running), null, { kind: "tool", node: cn.node.name, tool, args: args.value });
}

/** A tool's result (or failure) came back from the loop. */
export function toolAnswered(
  env: Env,
  state: RunState,
  phase: Extract<Phase, { kind: "calling_tools" }>,
  input: Extract<StepInput, { kind: "tool_result" }>,
): StepResult {
  const outcome: Outcome = input.ok ? { ok: true, value: input.value } : { ok: false, error: input.error };
  return record(env, state, phase.generating, phase.running!, outcome);
}

/** The call's result becomes a tool message for the model and a trace event. */
function record(env: Env, state: RunState, phase: ToolPhase, call: ToolCall, outcome: Outcome): StepResult {
  const content = outcome.ok
    ? typeof outcome.value === "string"
      ? outcome.value
      : JSON.stringify(outcome.value)
    : `Error: ${outcome.error}`;
  const tools = {
    ...phase.tools,
    messages: [...phase.tools.messages, { role: "tool" as const, toolCallId: call.id, content }],
  };
  const next: Phase = { kind: "calling_tools", generating: { ...phase, tools }, running: null };
  const node = nodeOf(env, phase.node).node;
  const ev = env.tracing
    ? event(env, state.mem, node, {
        kind: "tool_call",
        tool: call.name,
        id: call.id,
        arguments: call.arguments,
        round: phase.tools.rounds,
        ...(outcome.ok ? { result: outcome.value } : { error: outcome.error }),
      })
    : null;
  return result(moved(state, state.mem, next), ev);
}

/** The model's arguments text as an object; models do write malformed JSON, and that is reported to them. */
function readArguments(text: string): Outcome {
  if (text.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `the arguments are not valid JSON (${(e as Error).message}); send one JSON object` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return {
      ok: false,
      error: `the arguments must be a JSON object, not ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`,
    };
  }
  return { ok: true, value: value as JsonValue };
}
