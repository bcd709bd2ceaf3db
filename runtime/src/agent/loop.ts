/**
 * The loop around the pure step: it performs the effects the step asks for (model calls with
 * retries, code that calls tools) and feeds the results back, until a reply or the end.
 */
import { type JsonValue, traceKinds } from "@autograms/graph";
import { isToolCallingModel, type TokenUsage, type ToolCompletion } from "../model/types.js";
import { addUsage, hasUsage } from "../model/usage.js";
import { evaluateAsync, type HostFunction } from "@autograms/sandbox";
import { toolRunOptions, type ToolRunOptions } from "../language/tools.js";
import { AgentError } from "../errors.js";
import { fail } from "../engine/env.js";
import { printsBefore, sandboxFailure, writesBetween } from "../engine/evaluate.js";
import { step } from "../engine/step.js";
import { toFrames, type Stack } from "../engine/stack.js";
import type { Frame } from "../memory/types.js";
import type { Effect, RunState, StepInput, StepResult } from "../engine/state.js";
import type { TraceSink } from "../trace/events.js";
import { runActionHook } from "./action-hooks.js";
import type { PausePoint, Performer } from "./performer.js";
import type { Attempt } from "./reply-stream.js";
import { withRetries } from "./retries.js";

export type Outcome = { state: RunState; effect: Extract<Effect, { kind: "reply" | "finish" }> };

const CONTINUE: StepInput = { kind: "continue" };

export async function drive(p: Performer, state: RunState, input: StepInput): Promise<Outcome> {
  try {
    return await watched(p, state, input);
  } finally {
    // A model that goes on writing after the run has ended (abandoned at its deadline) is not heard.
    p.replies?.close();
  }
}

/** Where a run with a deadline is: the node its deadline error names. */
interface Whereabouts {
  node: string;
}

async function watched(p: Performer, state: RunState, input: StepInput): Promise<Outcome> {
  const { deadline } = p;
  if (!deadline) return run(p, state, input, null);
  const at: Whereabouts = { node: "node" in state.phase ? state.phase.node : "" };
  try {
    return await run(p, state, input, at);
  } catch (e) {
    if (!deadline.owns(e)) throw e;
    const node = p.env.program.nodes.get(at.node)?.node;
    throw new AgentError("deadline", `${e.message}; the memory given to this turn is unchanged`, {
      node: at.node,
      loc: node?.loc,
      file: p.env.program.file,
      cause: e,
    });
  } finally {
    deadline.dispose();
  }
}

async function run(p: Performer, state: RunState, input: StepInput, at: Whereabouts | null): Promise<Outcome> {
  try {
    return await steps(p, state, input, at);
  } catch (e) {
    // What the failed code printed comes before the error, as it would on a console.
    const prints = p.trace && printsBefore(e);
    if (prints) for (const event of prints) p.trace!(event);
    throw e;
  }
}

/**
 * The steps of a run. A step whose action is synchronous (code that calls no tool, a transition)
 * is followed by the next one at once: no promise, no await, unless a pause hook holds the run.
 */
async function steps(p: Performer, state: RunState, input: StepInput, at: Whereabouts | null): Promise<Outcome> {
  const { env, deadline, pause } = p;
  // Waits race the deadline; without one they are left as they are.
  const wait = deadline ? <T>(work: Promise<T>) => deadline.race(work) : <T>(work: Promise<T>) => work;
  const signal = deadline && { signal: deadline.signal };
  // How long the run has waited for the model and for tools since an event last reported it.
  const waited: Waited = { model: 0, tool: 0, usage: {} };
  // Only a traced run has events to carry the tokens.
  const counted = p.trace && { onUsage: (usage: TokenUsage) => void addUsage(waited.usage, usage) };
  // The clock is read before the work is called: a timer the work sets runs from then, and a
  // pause of the process between the call and the await must not come off the time waited.
  const timed = async <T>(on: keyof Waited, work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await work();
    } finally {
      waited[on] += performance.now() - start;
    }
  };
  if (pause && state.phase.kind === "enter") {
    const held = pause(new Point(state.phase.node, state.mem.stack));
    if (held !== undefined) await wait(Promise.resolve(held));
  }
  let r = step(env, state, input);
  for (;;) {
    report(p.trace, r, waited, p);
    const effect = r.effect;
    if (!effect) {
      // Steps between waits read the clock: a timer cannot fire while they run.
      deadline?.check();
      const phase = r.state.phase;
      if (phase.kind === "enter") {
        if (at) at.node = phase.node;
        if (pause) {
          const held = pause(new Point(phase.node, r.state.mem.stack));
          if (held !== undefined) await wait(Promise.resolve(held));
        }
      }
      r = step(env, r.state, CONTINUE);
      continue;
    }
    if (at && "node" in effect) at.node = effect.node;
    switch (effect.kind) {
      case "reply": {
        p.replies?.reply(effect.node, effect.text);
        p.replies?.check();
        if (r.state.phase.kind !== "route") return { state: r.state, effect };
        // The chat node's next step is certainly `quit`: take it now, so the reply says the conversation is over.
        const last = step(env, r.state, CONTINUE);
        report(p.trace, last, waited, p);
        return { state: last.state, effect };
      }
      case "finish":
        return { state: r.state, effect };
      case "complete": {
        const text = await timed("model", () =>
          wait(
            withRetries(p, effect.node, "generate text", () =>
              streaming(p, effect, async (live) => {
                const answer = await p.model.complete({
                  messages: effect.messages,
                  node: effect.node,
                  purpose: effect.purpose,
                  ...(effect.schema && { schema: effect.schema }),
                  ...signal,
                  ...counted,
                  ...live,
                });
                if (typeof answer !== "string") throw new Error(`complete() returned ${typeof answer}, not a string`);
                return answer;
              }),
            ),
          ),
        );
        p.replies?.check();
        r = step(env, r.state, { kind: "completed", text });
        break;
      }
      case "choose": {
        const index = await timed("model", () =>
          wait(
            withRetries(p, effect.node, "choose", async () => {
              const i = await p.model.choose({
                prompt: effect.prompt,
                choices: effect.choices,
                node: effect.node,
                ...signal,
                ...counted,
              });
              if (!Number.isInteger(i) || i < 0 || i >= effect.choices.length) {
                throw new Error(`choose() returned ${JSON.stringify(i)}, not an index below ${effect.choices.length}`);
              }
              return i;
            }),
          ),
        );
        r = step(env, r.state, { kind: "chosen", index });
        break;
      }
      case "evaluate": {
        const node = env.program.nodes.get(effect.node)!.node;
        let out;
        try {
          out = await wait(
            p.evaluate(effect.code, effect.variables, {
              ...(env.sandbox ?? env.program.limits),
              functions: p.codeTools,
            }),
          );
        } catch (e) {
          if (deadline?.owns(e)) throw e;
          throw sandboxFailure(env, r.state.mem, node, effect.code, "code", e);
        }
        const calls = p.takeCodeCalls?.();
        r = step(env, r.state, {
          kind: "evaluated",
          value: (out.value ?? null) as JsonValue,
          writes: writesBetween(effect.variables, out.variables as Record<string, JsonValue>),
          logs: out.logs,
          time: out.time,
          ...(calls && { calls }),
        });
        break;
      }
      case "complete_tools": {
        const model = p.model;
        if (!isToolCallingModel(model)) {
          throw fail(
            env,
            env.program.nodes.get(effect.node)!.node,
            "model",
            "this node offers tools to the model, but the model cannot call tools natively (it has no completeWithTools)",
          );
        }
        const stream = env.program.config.streamTools;
        const completion = await timed("model", () =>
          wait(
            withRetries(p, effect.node, "answer with tools", () =>
              streaming(p, effect, async (live) =>
                checkedCompletion(
                  await model.completeWithTools({
                    messages: effect.messages,
                    tools: effect.tools,
                    node: effect.node,
                    toolChoice: effect.toolChoice,
                    ...(effect.schema && { schema: effect.schema }),
                    ...(stream && { stream }),
                    ...signal,
                    ...counted,
                    ...live,
                  }),
                ),
              ),
            ),
          ),
        );
        p.replies?.check();
        r = step(env, r.state, { kind: "tool_completed", completion });
        break;
      }
      case "tool":
        r = step(env, r.state, await timed("tool", () => wait(runTool(p, effect.tool, effect.args))));
        break;
      case "action":
        r = step(env, r.state, await timed("model", () => wait(runActionHook(p, r.state, effect, counted?.onUsage))));
        break;
    }
  }
}

interface Waited {
  model: number;
  tool: number;
  /** The tokens of the model calls in `model`. */
  usage: TokenUsage;
}

/** The events that report the model's answers: the time spent waiting for them is theirs. */
const ANSWERED = traceKinds("answers");

/**
 * A step's trace events: what its code printed, then the step's own, which carries the time waited
 * for what it reports (a tool call's for the tool; a generation's, a decision's or a custom
 * action's for the model, every attempt of it).
 */
function report(trace: TraceSink | undefined, r: StepResult, waited: Waited, p: Performer): void {
  if (!trace) return;
  const model = p.model.model;
  if (r.before) for (const event of r.before) trace(event);
  const event = r.event;
  if (!event) return;
  const on = event.kind === "tool_call" ? "tool" : waited.model > 0 && ANSWERED.has(event.kind) ? "model" : null;
  if (on) {
    event.ms = Math.round(waited[on] * 10) / 10;
    waited[on] = 0;
  }
  if (on === "model" && hasUsage(waited.usage)) {
    event.usage = model === undefined ? waited.usage : { model, ...waited.usage };
    waited.usage = {};
  }
  if (on === "model" && p.settings) event.settings = p.settings;
  trace(event);
}

/**
 * One model call, heard as it writes when it is a chat node's reply and the run has `onText`;
 * each call (a retry, a regeneration, a round of tool calls) is an attempt of its own.
 */
async function streaming<T>(
  p: Performer,
  effect: Extract<Effect, { kind: "complete" | "complete_tools" }>,
  call: (live: { onText?: Attempt["onText"] }) => Promise<T>,
): Promise<T> {
  if (!p.replies || effect.purpose !== "chat") return call({});
  const node = p.env.program.nodes.get(effect.node)!;
  const attempt = p.replies.attempt(effect.node, {
    suffix: node.as === "chat_suffix",
    bannedPhrases: p.env.program.config.bannedPhrases,
  });
  try {
    return await call({ onText: attempt.onText });
  } finally {
    attempt.end();
  }
}

/**
 * One native tool call, through the sandbox's boundary as a code node's call would go: the tool
 * gets a copy of the arguments and must give back plain data. Whatever goes wrong is the result.
 */
async function runTool(p: Performer, tool: string, args: JsonValue): Promise<StepInput> {
  const variable = tool === "args" ? "input" : "args";
  const fn = p.tools[tool]!;
  // A tool that takes `{ signal }` (defineTool's run, MCP tools) can stop its work when the turn
  // stops waiting for it (deadline, the caller's signal): the wait alone ends at once either way.
  const signal = p.deadline?.signal;
  const withOptions = fn as (args: JsonValue, options: ToolRunOptions) => unknown;
  const call: HostFunction = signal ? (a) => withOptions(a, toolRunOptions(signal)) : fn;
  try {
    const out = await evaluateAsync(
      `${tool}(${variable})`,
      { [variable]: args },
      { ...p.env.program.limits, functions: { [tool]: call } },
    );
    return { kind: "tool_result", ok: true, value: (out.value ?? null) as JsonValue };
  } catch (e) {
    return { kind: "tool_result", ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** A completion as the step needs it; a model that answers something else is retried like a failed call. */
function checkedCompletion(c: ToolCompletion): ToolCompletion {
  if (
    !c ||
    typeof c.text !== "string" ||
    !Array.isArray(c.toolCalls) ||
    !c.toolCalls.every(
      (t) => t && typeof t.id === "string" && typeof t.name === "string" && typeof t.arguments === "string",
    )
  ) {
    throw new Error("completeWithTools() returned something other than { text, toolCalls: [{ id, name, arguments }] }");
  }
  return c;
}

/** A pause point: the frames are made from the run's stack only when the hook reads them. */
class Point implements PausePoint {
  #frames: readonly Frame[] | undefined;
  readonly #cells: Stack;

  constructor(
    readonly node: string,
    cells: Stack,
  ) {
    this.#cells = cells;
  }

  get stack(): readonly Frame[] {
    this.#frames ??= toFrames(this.#cells);
    return this.#frames;
  }
}
