/**
 * A stored turn run again to see what it sent: the prompts are not stored (they repeat the whole
 * conversation every turn), so they are rebuilt by replaying the turn from the memory before it,
 * the model answering from the turn's recorded answers, the tools (called by the model or by
 * code) and the custom actions' hooks giving their recorded results. Nothing of the agent's that
 * could act runs: no model, no tool, no hook. What runs is the graph's own code, in its sandbox.
 */
import {
  type Agent,
  type Memory,
  ReplayModel,
  recordedStandIns,
  settingsOfTrace,
  type RunOptions,
  type TraceEvent,
} from "@autograms/runtime";
import { StoreError } from "../errors.js";
import type { Store, TurnRecord } from "../types.js";

export interface ReplayedTurn {
  seq: number;
  user: string | null;
  /** The turn's events as the run made them, prompts included; up to where the replay stopped. */
  events: TraceEvent[];
  /** Why the replay stopped short (the agent changed since, or the turn was stored before calls from code were recorded); null when whole. */
  stopped: string | null;
}

/** What bounds a replay: a deadline, and a pause between nodes (to let other work run). */
export type ReplayOptions = Pick<RunOptions, "deadlineMs" | "pause">;

/**
 * Stored turn `seq` of the thread replayed on `agent` from the memory before it (`replayRecorded`).
 * `turns`: the thread's turns, as `store.turns` gives them (a caller replaying several turns of one
 * thread reads them once).
 */
export async function replayTurn(
  store: Store,
  agent: Agent,
  threadId: string,
  seq: number,
  options: ReplayOptions = {},
  turns: () => Promise<TurnRecord[]> = () => store.turns(threadId),
): Promise<ReplayedTurn> {
  const turn: TurnRecord | undefined = (await turns()).find((t) => t.seq === seq);
  if (!turn) throw new StoreError("bad_request", `thread ${threadId} has no turn ${seq}`);
  if (turn.status !== "ok")
    return {
      seq,
      user: turn.user,
      events: [],
      stopped: `turn ${seq} was ${turn.status}: it made no calls that were kept`,
    };
  const memory = seq <= 1 ? null : await store.memoryAt(threadId, seq - 1);
  return replayRecorded(agent, turn, memory, options);
}

/** A committed turn (status ok) replayed on `agent` from `memory`, the memory before it. */
export async function replayRecorded(
  agent: Agent,
  turn: TurnRecord,
  memory: Memory | null,
  options: ReplayOptions = {},
): Promise<ReplayedTurn> {
  const { seq } = turn;
  // The stored events are the run's, less the prompts (what this replay rebuilds).
  const recorded = turn.trace as unknown as TraceEvent[];
  const events: TraceEvent[] = [];
  const time = recorded.find((e) => e.kind === "time");
  const standIns = recordedStandIns(agent.graph, recorded);
  // The settings the turn's model calls had: its replayed calls show them again.
  const settings = settingsOfTrace(recorded);
  let stopped: string | null = null;
  try {
    await agent.reply(turn.user ?? "", memory ?? undefined, {
      model: new ReplayModel(recorded, { check: "node" }),
      ...standIns.options,
      // Nothing from where the recording ran out: the run went on with an answer the turn never had.
      trace: (e) => void (standIns.exhausted() === undefined && events.push(e)),
      ...(time?.kind === "time" && { now: time.time }),
      ...(settings && { modelSettings: settings }),
      ...options,
    });
  } catch (err) {
    stopped = err instanceof Error ? err.message : String(err);
  }
  const exhausted = standIns.exhausted();
  if (exhausted !== undefined)
    stopped = `${exhausted}: the turn was stored before such calls were recorded, or the agent has changed since`;
  return { seq, user: turn.user, events: withRecordedDurations(events, recorded), stopped };
}

/**
 * The replay waited for nothing: each event gets the duration the turn's own event recorded (the
 * replay makes the same events in the same order, up to where it stopped).
 */
function withRecordedDurations(events: TraceEvent[], recorded: readonly TraceEvent[]): TraceEvent[] {
  return events.map((e, i) => {
    const { ms: _replayed, ...event } = e;
    const then = recorded[i];
    return then?.node === e.node && then.kind === e.kind && then.ms !== undefined
      ? ({ ...event, ms: then.ms } as TraceEvent)
      : (event as TraceEvent);
  });
}
