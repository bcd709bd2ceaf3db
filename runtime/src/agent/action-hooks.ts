/**
 * The nodes of custom actions, on the loop's side: a hook is host code, run like a tool. It gets
 * a context of copies, its model calls go through the loop (with its retries, recorded for the
 * trace so a replay answers them), and its value crosses into memory through the sandbox's
 * copying boundary, as a tool's result does.
 */
import type { ActionContext, ActionDefinition, LeavingContext } from "../language/actions.js";
import { AgentError } from "../errors.js";
import { fail } from "../engine/env.js";
import { buildChatMessages } from "../engine/prompt.js";
import { lookupVar, top, visibleTurns, visibleVars } from "../engine/scope.js";
import type { Effect, RunState, StepInput } from "../engine/state.js";
import type { ActionEffects, ActionInfo, JsonValue } from "@autograms/graph";
import { recordedEffects } from "@autograms/graph";
import type { ChatMessage, CompletionPurpose, UsageListener } from "../model/types.js";
import { evaluateAsync, SandboxError } from "@autograms/sandbox";
import type { ActionCall } from "../trace/events.js";
import type { Performer } from "./performer.js";
import { withRetries } from "./retries.js";

type ActionEffect = Extract<Effect, { kind: "action" }>;

export async function runActionHook(
  p: Performer,
  state: RunState,
  effect: ActionEffect,
  onUsage?: UsageListener,
): Promise<StepInput> {
  const { env } = p;
  const cn = env.program.nodes.get(effect.node)!;
  const node = cn.node;
  const name = cn.custom!.action;
  const hook = p.actions[name]![effect.hook] as ((ctx: LeavingContext<unknown>) => unknown) | undefined;
  const calls: ActionCall[] = [];
  let open = true;
  const ctx = hookContext(p, state, effect, calls, onUsage, () => {
    if (!open)
      throw new AgentError(
        "action_failed",
        `action '${name}': its ${effect.hook} hook used the model after it returned (await every model call)`,
        { node: node.name, loc: node.loc, file: env.program.file },
      );
  });
  let failure: { error: unknown } | undefined;
  // The hook runs as the one host function of a sandbox evaluation: its value is checked to be
  // plain data and copied, exactly as a tool's result is.
  const run = async () => {
    try {
      return (await hook!(ctx)) ?? null;
    } catch (error) {
      failure = { error };
      return null;
    }
  };
  let value: JsonValue;
  try {
    const out = await evaluateAsync(
      `${effect.hook}()`,
      {},
      { ...env.program.limits, functions: { [effect.hook]: run } },
    );
    value = (out.value ?? null) as JsonValue;
  } catch (e) {
    const detail = e instanceof SandboxError ? e.message : String(e);
    throw fail(
      env,
      node,
      "action_failed",
      `action '${name}': its ${effect.hook} hook gave a value that cannot go into memory: ${detail}`,
      e,
    );
  } finally {
    open = false;
  }
  if (failure) {
    const e = failure.error;
    if (e instanceof AgentError) throw e;
    throw fail(
      env,
      node,
      "action_failed",
      `action '${name}': its ${effect.hook} hook failed: ${e instanceof Error ? e.message : String(e)}`,
      e,
    );
  }
  return { kind: "acted", value, calls };
}

function hookContext(
  p: Performer,
  state: RunState,
  effect: ActionEffect,
  calls: ActionCall[],
  onUsage: UsageListener | undefined,
  check: () => void,
): LeavingContext<unknown> {
  const { env } = p;
  const cn = env.program.nodes.get(effect.node)!;
  const node = cn.node;
  const stack = state.mem.stack;
  const config = env.program.config;
  const complete = async (messages: ChatMessage[], purpose: CompletionPurpose = "chat"): Promise<string> => {
    check();
    const sent = structuredClone(messages);
    const answer = await withRetries(p, node.name, "generate text", async () => {
      const text = await p.model.complete({ messages: sent, node: node.name, purpose, ...(onUsage && { onUsage }) });
      if (typeof text !== "string") throw new Error(`complete() returned ${typeof text}, not a string`);
      return text;
    });
    check();
    calls.push({ kind: "complete", purpose, messages: sent, answer });
    return answer;
  };
  const messages = (instruction: string): ChatMessage[] =>
    buildChatMessages({
      prompt: top(state.mem).prompt,
      turns: visibleTurns(stack),
      node,
      user: state.pending ?? "",
      instruction,
      config,
      nodeNamed: (n) => env.program.nodes.get(n)?.node,
    });
  const ctx: ActionContext<unknown> & { output: JsonValue } = {
    node: Object.freeze({
      name: node.name,
      action: node.action,
      transitions: Object.freeze([...node.transitions]),
      // What the original's apply_transition reads from its node, for a hook that asks the model itself.
      ...(node.transition_question !== undefined && { transition_question: node.transition_question }),
      ...(node.transition_choices && { transition_choices: Object.freeze([...node.transition_choices]) }),
      ...(node.question_prompt !== undefined && { question_prompt: node.question_prompt }),
      ...(node.transition_context !== undefined && { transition_context: node.transition_context }),
      ...(node.loc && { loc: { ...node.loc } }),
    }),
    fields: structuredClone(effect.fields),
    instruction: effect.instruction,
    userReply: state.pending,
    prompt: top(state.mem).prompt,
    turns: structuredClone(visibleTurns(stack).flat()),
    output: structuredClone(effect.output),
    variable: (name) => structuredClone(lookupVar(stack, String(name))),
    variables: () => structuredClone(visibleVars(stack)),
    model: {
      complete: (m, options) => complete(m, options?.purpose),
      choose: async (prompt, choices) => {
        check();
        const sent = [...choices].map(String);
        const answer = await withRetries(p, node.name, "choose", async () => {
          const i = await p.model.choose({
            prompt: String(prompt),
            choices: sent,
            node: node.name,
            ...(onUsage && { onUsage }),
          });
          if (!Number.isInteger(i) || i < 0 || i >= sent.length)
            throw new Error(`choose() returned ${JSON.stringify(i)}, not an index below ${sent.length}`);
          return i;
        });
        check();
        calls.push({ kind: "choose", prompt: String(prompt), choices: sent, answer });
        return answer;
      },
    },
    messages,
    generate: (instruction, options) => complete(messages(String(instruction)), options?.purpose),
  };
  return ctx;
}

/**
 * The implementations for the graph's custom actions, checked against what the graph records (the
 * compiler read each definition): a missing one, or one whose name, base or fields differ, is an
 * error now rather than at the node.
 */
export function checkActions(
  graphActions: Record<string, ActionInfo>,
  given: readonly ActionDefinition<any, any>[] | Record<string, ActionDefinition<any, any>> | undefined,
  file: string | undefined,
): Record<string, ActionDefinition<any, any>> {
  const byName: Record<string, ActionDefinition<any, any>> = {};
  const problems: string[] = [];
  const entries: [string | null, unknown][] = Array.isArray(given)
    ? given.map((d) => [null, d])
    : Object.entries(given ?? {});
  for (const [key, def] of entries) {
    const label = key === null ? "an entry of options.actions" : `options.actions.${key}`;
    if (
      typeof def !== "object" ||
      def === null ||
      typeof (def as ActionDefinition).name !== "string" ||
      !("fields" in def)
    ) {
      problems.push(`${label} is not an action made with defineAction`);
      continue;
    }
    const d = def as ActionDefinition<any, any>;
    if (key !== null && key !== d.name && Object.hasOwn(graphActions, key)) {
      problems.push(
        `options.actions.${key} is the action '${d.name}'; give each action under its own name (or pass an array)`,
      );
      continue;
    }
    byName[d.name] = d;
  }
  const canonical = (v: unknown) =>
    JSON.stringify(v, (_k, x) =>
      x && typeof x === "object" && !Array.isArray(x)
        ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)))
        : x,
    );
  for (const [name, info] of Object.entries(graphActions)) {
    const where = `action '${name}' (export '${info.export}' of '${info.module}')`;
    const d = Object.hasOwn(byName, name) ? byName[name]! : undefined;
    if (!d) {
      problems.push(`the graph uses ${where}, but no implementation was given in options.actions`);
      continue;
    }
    if ((d.base ?? null) !== (info.base ?? null)) {
      problems.push(
        `${where}: the graph was compiled with base ${info.base ? `'${info.base}'` : "none"}, the implementation given has ${d.base ? `'${d.base}'` : "none"}: compile the agent again`,
      );
    }
    if (!!d.transition !== (info.decides === true)) {
      problems.push(
        `${where}: the graph was compiled ${info.decides ? "with" : "without"} a transition hook, the implementation given has ${d.transition ? "one" : "none"}: compile the agent again`,
      );
    }
    if (
      canonical(d.fields) !== canonical(info.fields ?? {}) ||
      canonical([...d.required].sort()) !== canonical([...(info.required ?? [])].sort())
    ) {
      problems.push(
        `${where}: the graph was compiled with other fields than the implementation given declares: compile the agent again`,
      );
    }
    const effects = (e: ActionEffects | undefined) => canonical({ ...e, assign: [...(e?.assign ?? [])].sort() });
    if (effects(recordedEffects(d.effects)) !== effects(info.effects)) {
      problems.push(
        `${where}: the graph was compiled with effects ${JSON.stringify(info.effects ?? {})}, the implementation given declares ${JSON.stringify(recordedEffects(d.effects) ?? {})}: compile the agent again`,
      );
    }
  }
  if (problems.length) {
    throw new AgentError(
      "missing_action",
      problems.length === 1
        ? problems[0]!
        : `${problems.length} problems with the custom actions:\n${problems.map((p) => `  ${p}`).join("\n")}`,
      { file },
    );
  }
  return byName;
}
