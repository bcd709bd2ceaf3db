/**
 * What a replay gives its run in place of everything that acts outside the conversation: the
 * agent's tools (the model's native calls and the calls in code, `tryTool`'s included) and the
 * custom actions' hooks each give back what the recording says they gave, in order. Nothing of the
 * agent's own code that could act (send a message, charge a card, write a file) runs again.
 */
import type { Graph, JsonValue } from "@autograms/graph";
import type { ActionContext } from "../language/actions.js";
import { RUNTIME_MODULE } from "@autograms/graph";
import type { RunOptions } from "../agent/run-options.js";
import type { TraceEvent } from "../trace/events.js";

type Hook = "instruction" | "transition" | "output";
type Custom = Extract<TraceEvent, { kind: "custom" }>;

/** The recording has no answer for what the run does now: the replay stops there, saying why. */
export class RecordingExhausted extends Error {
  override name = "RecordingExhausted";
}

export interface RecordedStandIns {
  /** The run options that put them in place. */
  options: Required<Pick<RunOptions, "tools" | "hooks">>;
  /**
   * Why the recording ran out, once a stand-in found no answer for what the run did: the run may
   * have gone on past it (`tryTool` gives a tool's failure back as a value), so what it did from
   * there on is not the turn's.
   */
  exhausted(): string | undefined;
}

export function recordedStandIns(graph: Graph, recorded: readonly TraceEvent[]): RecordedStandIns {
  let exhausted: string | undefined;
  const runOut = (why: string) => {
    exhausted ??= why;
    return new RecordingExhausted(why);
  };
  const calls = new Map<string, Extract<TraceEvent, { kind: "tool_call" }>[]>();
  const hooked = new Map<string, Custom[]>();
  for (const e of recorded) {
    if (e.kind === "tool_call") calls.set(e.tool, [...(calls.get(e.tool) ?? []), e]);
    else if (e.kind === "custom")
      hooked.set(`${e.action}:${e.hook}`, [...(hooked.get(`${e.action}:${e.hook}`) ?? []), e]);
  }
  const tools: Record<string, () => unknown> = {};
  // Every tool of the agent is replaced, called in the recording or not: one called where the
  // recording has no result (a recording made before calls from code were kept) stops the replay.
  for (const [name, info] of Object.entries(graph.tools ?? {})) {
    if (info.module === RUNTIME_MODULE) continue;
    const left = calls.get(name) ?? [];
    tools[name] = () => {
      const next = left.shift();
      if (!next) throw runOut(`the turn called tool '${name}' where the recording has no result for it`);
      if (next.error !== undefined)
        // A native call's error is recorded as the model saw it.
        throw new Error(next.round === 0 ? next.error : next.error.replace(/^Error: /, ""));
      return next.result ?? null;
    };
  }
  const hooks: RunOptions["hooks"] & object = {};
  for (const name of Object.keys(graph.actions ?? {})) {
    const own: Partial<Record<Hook, (ctx: ActionContext<unknown>) => Promise<JsonValue>>> = {};
    // One for each hook an action may have: the run uses those of the hooks the agent's action has.
    for (const hook of ["instruction", "transition", "output"] as const) {
      const left = hooked.get(`${name}:${hook}`) ?? [];
      own[hook] = async (ctx) => {
        const next = left.shift();
        if (!next || next.node !== ctx.node.name)
          throw runOut(
            `the recording has no result of the ${hook} hook of action '${name}' at node '${ctx.node.name}' here`,
          );
        // The model calls the hook made, made again: the replay's model answers them and the event shows them.
        for (const c of next.calls) {
          if (c.kind === "complete") await ctx.model.complete(c.messages, { purpose: c.purpose });
          else await ctx.model.choose(c.prompt, c.choices);
        }
        return hookResult(next);
      };
    }
    hooks[name] = own;
  }
  return { options: { tools, hooks }, exhausted: () => exhausted };
}

/** What the hook returned, as its event records it. */
function hookResult(e: Custom): JsonValue {
  if (e.hook === "output") return e.output ?? null;
  if (e.hook === "transition") return e.target ?? null;
  if (e.reply === undefined && e.thought === undefined && e.result === undefined) return null;
  return {
    ...e.result,
    ...(e.reply !== undefined && { reply: e.reply }),
    ...(e.thought !== undefined && { thought: e.thought }),
  };
}
