/**
 * Plays one turn of the agent (`Agent.reply`) under its budgets, the same in a worker thread and
 * in the server's own thread: its steps go out bounded as they happen, its whole trace comes back
 * with the result, packed for the commit. A turn that runs long lets the other turns of its thread have
 * the event loop between its steps, so one turn never stalls the turns beside it.
 */
import {
  replyOf,
  storedEvent,
  type Agent,
  type Memory,
  type ModelSettings,
  type ReplyChunk,
  type StoredTraceEvent,
  type TraceEvent,
} from "@autograms/runtime";
import { TraceText } from "@autograms/store";
import type { ComputeSteps } from "../runs/bounded-steps.js";
import { boundedStep } from "./bounded-step.js";
import type { PlayedResult } from "./protocol.js";
import { TurnMeter, type TurnBudgetError, type TurnBudgets } from "./turn-budget.js";

export interface PlayHooks {
  /** Aborts the turn (its lease lost, the server stopping, a client's stop): it fails with the signal's reason. */
  signal: AbortSignal;
  budgets: TurnBudgets;
  /** `json`: the step's JSON text, as it is sent (its large values omitted, unless `wholeSteps`). */
  onStep(event: StoredTraceEvent, json: string): void;
  /**
   * Every step whole: all its values, a generation's prompt, however many steps the turn takes. For
   * a command that writes the turn's trace for its one user (`chat --watch`), not a served run's
   * stream, which the bounds protect from a turn's size.
   */
  wholeSteps?: boolean;
  /**
   * The run's compute steps, counted by the player across the run's turns: its stream's bound.
   * Absent: a worker thread bounds the turn alone (its counts in the result, or the error), the
   * server's own thread sends every step.
   */
  steps?: ComputeSteps;
  onText(chunk: ReplyChunk): void;
  /** The thread's heap limit, in a worker. */
  heapLimitBytes?: number;
  /** The model settings chosen for the thread, for this turn (`RunOptions.modelSettings`). */
  modelSettings?: ModelSettings;
  /** Told, as the turn ends (played or failed), the milliseconds of synchronous work it did and the steps it took. */
  spent?(ms: number, steps: number): void;
  /** Told each time the turn yields the event loop because it computed for a whole slice: the same, so far. */
  computing?(ms: number, steps: number): void;
}

/** What the one who plays a turn is told of its synchronous work (PlayHooks). */
export type TurnWork = Pick<PlayHooks, "spent" | "computing">;

export async function playTurn(
  agent: Agent,
  text: string | null,
  memory: Memory | null,
  hooks: PlayHooks,
): Promise<PlayedResult> {
  const over = new AbortController();
  const meter = new TurnMeter(hooks.budgets, (err: TurnBudgetError) => over.abort(err), hooks.heapLimitBytes);
  // Each step serialized once, as it happens: that text measures it, bounds it for the stream and
  // is what the commit stores (packed here); the step's objects are not kept for the turn's end.
  const trace = new TraceText();
  let replyAt = "";
  const sink = (e: TraceEvent) => {
    const stored = storedEvent(e);
    const json = JSON.stringify(stored);
    trace.add(json);
    if (replyOf(e) !== undefined) replyAt = e.node;
    const { event, bytes } = boundedStep(stored);
    meter.step(bytes);
    // Past the stream's bound a step is only counted: a loop of a million steps costs a count.
    if (hooks.steps && !hooks.steps.sends(e.kind)) return;
    // A whole step is the event itself: stored is the same object when it had no prompt to strip.
    const sent = hooks.wholeSteps ? (e as unknown as StoredTraceEvent) : event;
    hooks.onStep(sent, sent === stored ? json : JSON.stringify(sent));
  };
  // Nothing (no promise) while the slice lasts: the run goes on to its next node at once.
  const pause = () => {
    if (!meter.sliceEnded) return;
    hooks.computing?.(meter.spent, meter.taken);
    return new Promise<void>((r) => setImmediate(r)).then(() => meter.resumed());
  };
  try {
    const result = await agent.reply(text ?? "", memory ?? undefined, {
      trace: sink,
      onText: hooks.onText,
      pause,
      signal: AbortSignal.any([hooks.signal, over.signal]),
      ...(hooks.modelSettings && { modelSettings: hooks.modelSettings }),
    });
    // What the turn left held (a buffer a hook kept) fails it as the memory it took while running.
    const exceeded = meter.finish();
    if (exceeded) throw exceeded;
    return {
      reply: result.reply,
      memory: result.memory,
      done: result.done,
      replyNode: replyAt,
      packed: trace.pack(result.delta),
    };
  } catch (err) {
    throw meter.exceeded ?? (hooks.signal.aborted ? hooks.signal.reason : err);
  } finally {
    meter.close();
    hooks.spent?.(meter.spent, meter.taken);
  }
}
