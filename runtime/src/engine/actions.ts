/**
 * What each action does when its node is entered (docs/semantics.md#actions), one function per family.
 * Chat and thought nodes consume the waiting user message; a chat node ends the turn.
 */
import { visitsOf } from "../memory/own.js";
import type { ChatMessage, ToolCall, ToolChatMessage } from "../model/types.js";
import { runHook } from "./action-hook.js";
import { fail, nodeOf, type Env } from "./env.js";
import { finishTurn } from "./finish-turn.js";
import { leave, leaveEmpty } from "./output.js";
import type { CompiledNode } from "./program.js";
import { buildChatMessages } from "./prompt.js";
import { render } from "./render.js";
import { evaluation, moved, result } from "./result.js";
import { frameWith, memoryWith, top, visibleTurns, withTop } from "./scope.js";
import type { RunMemory } from "./stack.js";
import type { Effect, Handled, Phase, RunState, StepResult } from "./state.js";
import { readStructuredAnswer, schemaFeedback, schemaRequest } from "./structured-answer.js";
import { fitSuffix, hasBannedPhrase } from "./suffix.js";
import { toolRequest } from "./tool-request.js";
import { assignChanges, type changesOf, event } from "./trace-event.js";

export function enter(env: Env, state: RunState, name: string): Handled {
  const cn = nodeOf(env, name);
  const node = cn.node;
  const steps = state.steps + 1;
  if (steps > env.program.maxSteps) {
    throw fail(
      env,
      node,
      "step_limit",
      `stopped after ${env.program.maxSteps} node steps in one run (does the graph loop forever?)`,
    );
  }
  if (cn.chat && state.mode === "call") {
    throw fail(
      env,
      node,
      "chat_in_call",
      "agent.call() reached a chat node; a function run by call() may not talk to the user",
    );
  }
  state = moved(state, countVisit(env, state.mem, name), state.phase, state.pending, [], steps);
  // The node's own setup runs first, whichever way the node was entered; then its action.
  if (node.setup !== undefined) return evaluation(state, node, node.setup, { kind: "setup", node: name }, "setup");
  return act(env, state, cn);
}

/** The node's action, once it has been entered (and its setup has run). */
export function act(env: Env, state: RunState, cn: CompiledNode): Handled {
  const node = cn.node;
  const name = node.name;
  if (cn.custom?.hooks.instruction) return runHook(env, state, cn, "instruction", null, false);
  // A custom action without an instruction hook does what its base does.
  switch (cn.as) {
    case "chat":
    case "chat_suffix":
    case "thought":
    case "thought_qa":
      return askModel(env, state, cn);
    case "chat_exact":
    case "thought_exact":
      return exact(env, state, cn);
    case "code":
      return evaluation(state, node, node.instruction ?? "", { kind: "code", node: name }, "code");
    case "function":
    case "local_function":
    case "global_function":
      return call(env, state, cn);
    case "transition":
      // Its changes are read before the output is written (in place, when the run may).
      return env.tracing
        ? result(
            leave(state, node, null),
            event(env, state.mem, node, { kind: "pass" }, assignChanges(env, state.mem, node, null)),
          )
        : result(leaveEmpty(env, state, node));
    case "set_prompt":
    case "append_prompt":
    case "set_user_prompt":
    case "append_user_prompt":
      return prompt(env, state, cn);
  }
}

/** Only nodes some transition or call consults have their visits counted. */
function countVisit(env: Env, mem: RunMemory, name: string): RunMemory {
  if (!env.program.tracked.has(name)) return mem;
  return memoryWith(mem, mem.stack, { ...mem.visits, [name]: visitsOf(mem.visits, name) + 1 });
}

function instructionText(env: Env, state: RunState, cn: CompiledNode): string {
  const text = render(env, state, cn.node, cn.text);
  if (!text.trim())
    throw fail(env, cn.node, "undefined_variable", "the instruction is empty once its variables are filled in");
  return text;
}

// The text the original's ChatSuffixNode sends (autograms/nodes/chat_nodes.py), misspelling and
// all: models were prompted with it, and agents ported from the original expect its prompts.
const SUFFIX_INSTRUCTION = (text: string) =>
  `Respond to the user's last reply, and then include the **bold** text at the end of your response to direct the conversation:**${text}**. It is also okay for the whole repsonse to be the bold text if it fits the situation.`;

function askModel(env: Env, state: RunState, cn: CompiledNode): StepResult {
  const node = cn.node;
  const text = instructionText(env, state, cn);
  const instruction =
    cn.as === "chat_suffix"
      ? SUFFIX_INSTRUCTION(text)
      : node.schema !== undefined
        ? schemaRequest(text, node.schema)
        : text;
  const frame = top(state.mem);
  const messages = buildChatMessages({
    prompt: frame.prompt,
    turns: visibleTurns(state.mem.stack),
    node,
    user: state.pending ?? "",
    instruction,
    config: env.program.config,
    nodeNamed: (n) => env.program.nodes.get(n)?.node,
  });
  const phase: Phase = { kind: "generating", node: node.name, instruction: text, messages, attempt: 1, raw: [] };
  if (cn.tools) {
    const tools = { messages: [...messages], rounds: 0, queue: [] };
    return result(moved(state, state.mem, { ...phase, tools }), null, toolRequest(env, cn, tools));
  }
  return result(moved(state, state.mem, phase), null, completion(cn, messages));
}

function completion(cn: CompiledNode, messages: ChatMessage[]): Effect {
  const { node } = cn;
  return {
    kind: "complete",
    node: node.name,
    purpose: cn.chat ? "chat" : "thought",
    messages,
    ...(node.schema !== undefined && { schema: node.schema }),
  };
}

/** The model answered; keep the answer, or ask again when it is unusable and attempts remain. */
export function generated(
  env: Env,
  state: RunState,
  phase: Extract<Phase, { kind: "generating" }>,
  answer: string,
): StepResult {
  const cn = nodeOf(env, phase.node);
  const node = cn.node;
  const config = env.program.config;
  const raw = [...phase.raw, answer];
  const canRetry = phase.attempt < config.generationAttempts;
  let output = answer.trim();
  let suffix: "generated" | "completed" | "fallback" | undefined;
  const banned = hasBannedPhrase(output, config.bannedPhrases);
  const read = cn.answers ? readStructuredAnswer(cn.answers, answer) : undefined;
  if (read && !read.ok && !banned) {
    if (!canRetry) {
      const shown = output.length > 200 ? `${output.slice(0, 200)}...` : output;
      throw fail(
        env,
        node,
        "invalid_output",
        `the model's answer does not match the node's schema after ${phase.attempt} attempt${phase.attempt === 1 ? "" : "s"} (${read.why}); its last answer: ${JSON.stringify(shown)}`,
      );
    }
    // Asked again with what was wrong, so the model can mend its answer rather than repeat it.
    const feedback = schemaFeedback(answer, read.why);
    const again: Phase = { ...phase, attempt: phase.attempt + 1, raw };
    if (phase.tools) {
      again.tools = { ...phase.tools, messages: [...phase.tools.messages, ...feedback] };
      return result(moved(state, state.mem, again), null, toolRequest(env, cn, again.tools));
    }
    again.messages = [...phase.messages, ...feedback];
    return result(moved(state, state.mem, again), null, completion(cn, again.messages));
  }
  if (cn.as === "chat_suffix") {
    const fitted = banned ? null : fitSuffix(answer, phase.instruction);
    if (fitted) ({ text: output, how: suffix } = fitted);
    else if (!canRetry) {
      output = phase.instruction;
      suffix = "fallback";
    }
  }
  if ((banned || (cn.as === "chat_suffix" && !suffix)) && canRetry) {
    const again: Phase = { ...phase, attempt: phase.attempt + 1, raw };
    // With tools, the model is asked again from where it gave the unusable answer, tool results included.
    const effect = phase.tools ? toolRequest(env, cn, phase.tools) : completion(cn, phase.messages);
    return result(moved(state, state.mem, again), null, effect);
  }
  const retained = !cn.chat || !state.pending;
  const modelInstruction = cn.as === "chat_suffix" ? SUFFIX_INSTRUCTION(phase.instruction) : phase.instruction;
  if (read?.ok) output = JSON.stringify(read.data);
  const value = read?.ok ? read.data : cn.as === "thought_qa" ? `${phase.instruction}\n\n${output}` : output;
  const ev = (mem: RunMemory, changes: ReturnType<typeof changesOf>) =>
    event(
      env,
      mem,
      node,
      {
        kind: "generate",
        purpose: cn.chat ? "chat" : "thought",
        messages: phase.messages,
        raw,
        output: value,
        ...(suffix ? { suffix } : {}),
        ...(phase.tools ? { toolAnswers: toolAnswersOf(phase.tools.messages) } : {}),
      },
      changes,
    );
  return finishTurn(env, state, cn, output, value, retained ? modelInstruction : undefined, ev);
}

/** The model's answers that called tools, in order: with `raw`, every answer a tool node got. */
function toolAnswersOf(messages: ToolChatMessage[]): { text: string; toolCalls: ToolCall[] }[] {
  return messages.flatMap((m) => ("toolCalls" in m ? [{ text: m.content ?? "", toolCalls: m.toolCalls }] : []));
}

function exact(env: Env, state: RunState, cn: CompiledNode): StepResult {
  const text = instructionText(env, state, cn);
  // The original records these as instructions so later prompts can show them (thoughts only).
  const retained = cn.chat ? undefined : `Reply with this exact text: ${text}`;
  return finishTurn(env, state, cn, text, text, retained, (mem, changes) =>
    event(env, mem, cn.node, { kind: "exact", output: text }, changes),
  );
}

function prompt(env: Env, state: RunState, cn: CompiledNode): StepResult {
  const node = cn.node;
  const text = render(env, state, node, cn.text);
  const frame = top(state.mem);
  const updated = frameWith(frame, frame.vars);
  switch (cn.as) {
    case "set_prompt":
      updated.prompt = text;
      break;
    case "append_prompt":
      updated.prompt = `${frame.prompt}\n${text}`;
      break;
    case "set_user_prompt":
      updated.userPrompt = text;
      break;
    case "append_user_prompt":
      updated.userPrompt = `${frame.userPrompt}\n${text}`;
      break;
  }
  const mem = withTop(state.mem, updated);
  return result(
    leave(state, node, null, mem),
    env.tracing ? event(env, mem, node, { kind: "prompt", text }, assignChanges(env, mem, node, null)) : null,
  );
}

/** A call: arguments are evaluated in the caller's scope, unless `required_revisit` blocks the call. */
function call(env: Env, state: RunState, cn: CompiledNode): Handled {
  const node = cn.node;
  const unvisited = (node.required_revisit ?? []).filter((s) => visitsOf(state.mem.visits, s) === 0);
  if (unvisited.length) {
    const ev = env.tracing
      ? event(
          env,
          state.mem,
          node,
          { kind: "skip_call", function: cn.call!.name, unvisited },
          assignChanges(env, state.mem, node, null),
        )
      : null;
    return result(leave(state, node, null), ev);
  }
  return evaluation(state, node, cn.call!.args, { kind: "args", node: node.name }, "arguments");
}
