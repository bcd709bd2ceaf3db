/**
 * Re-running a recorded conversation without a model: the recorded answers come from a
 * ReplayModel, the user's messages from the recorded `user` events, and every step the replay
 * takes is checked against the recorded one, so "same results" is verified node by node.
 */
import { Agent, type AgentOptions } from "../agent/agent.js";
import type { Graph } from "@autograms/graph";
import type { Memory } from "../memory/types.js";
import type { TraceEvent } from "../trace/events.js";
import { recordedConversation, turnTime } from "./recording.js";
import { ReplayDivergence, ReplayModel, textDifference, type ReplayModelOptions } from "./replay-model.js";

export interface ReplayOptions extends ReplayModelOptions, Omit<AgentOptions, "model"> {
  /** The first message, when the trace cannot tell it (a one-turn recording); "" by default. */
  first?: string;
  /** Which conversation of a recording that holds several (as `simulate` writes); the first by default. */
  conversation?: number;
}

export interface ReplayedTurn {
  user: string;
  reply: string | null;
  done: boolean;
  memory: Memory;
  /** The replayed turn's events (equal to the recorded ones but for source locations). */
  events: TraceEvent[];
}

/** Replays one recorded conversation turn by turn, yielding each turn's result as `reply()` gave it. */
export async function* replayConversation(
  graph: Graph,
  recording: readonly TraceEvent[] | string,
  options: ReplayOptions = {},
): AsyncGenerator<ReplayedTurn> {
  const { first, conversation: which = 0, check, source, file: fileOption, ...agentOptions } = options;
  const conversation = recordedConversation(recording, which, source);
  const file = fileOption ?? graph.source?.file;
  const model = new ReplayModel(
    conversation.turns.flatMap((t) => t.events),
    { check, source, file },
  );
  // A replay answers the same way every time: retrying a divergence only repeats it.
  const agent = new Agent(graph, { ...agentOptions, model, config: { ...agentOptions.config, modelRetries: 0 } });
  let memory: Memory | undefined;
  for (const [index, turn] of conversation.turns.entries()) {
    const user = turn.user ?? first ?? "";
    const events: TraceEvent[] = [];
    const compare = (e: TraceEvent) => {
      const recorded = turn.events[events.length];
      const why = recorded ? eventDifference(recorded, e) : "the recorded turn has ended here";
      if (why) {
        throw new ReplayDivergence(
          e.node,
          `replay diverged in turn ${index + 1}, step ${events.length + 1}, at node '${e.node}' (${e.kind}): ${why}`,
          { file, loc: e.loc },
        );
      }
      events.push(e);
    };
    // The time the turn's code read then, so that it computes what it computed then.
    const r = await agent.reply(user, memory, { trace: compare, now: turnTime(turn) });
    memory = r.memory;
    yield { user, reply: r.reply, done: r.done, memory: r.memory, events };
  }
}

/**
 * Why two events differ (source locations and durations aside), or undefined when they do not. Only the fields
 * the runtime reports count: a trace file's lines may add their own (a location text, a number).
 */
function eventDifference(recorded: TraceEvent, now: TraceEvent): string | undefined {
  if (recorded.node !== now.node || recorded.kind !== now.kind)
    return `the recording is at node '${recorded.node}' (${recorded.kind}) here`;
  const a = recorded as unknown as Record<string, unknown>;
  const b = now as unknown as Record<string, unknown>;
  // What the step did first; what it did to the variables and the stack after.
  // A duration is how long the run waited, not what it did: a replay answers at once.
  const keys = Object.keys(b).filter((k) => k !== "loc" && k !== "ms");
  keys.sort((x, y) => Number(x === "stack" || x === "changes") - Number(y === "stack" || y === "changes"));
  for (const key of keys) {
    const text = (v: unknown) => (typeof v === "string" ? v : (JSON.stringify(v) ?? "undefined"));
    const x = text(a[key]);
    const y = text(b[key]);
    if (x !== y) return `its ${key} differs ${textDifference(x, y)}`;
  }
  return undefined;
}
