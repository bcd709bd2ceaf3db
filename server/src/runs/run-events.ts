/**
 * The one internal event stream of a run (a turn being served): the turn's trace events plus the
 * reply's text as the model writes it. Every protocol adapter (AI SDK UI stream, AG-UI, the
 * playground's own stream) is a translation of this stream, one file each. Events are numbered
 * from 1 within a run and stored as they happen, so a client that reconnects with the number of
 * the last event it saw gets exactly the rest, from any server process.
 */
import type { StoredTraceEvent } from "@autograms/runtime";

export type RunEvent =
  /**
   * The run took the thread: `turn` is the number its turn will have once committed. `opening`:
   * the thread was new, so the agent's opening turn (`turn - 1`) runs first, within this run (its
   * reply is text of its own, ended by the step events that follow it), then the user's message.
   */
  | {
      type: "run-start";
      threadId: string;
      runId: string;
      messageId: string | null;
      user: string | null;
      turn: number;
      opening?: boolean;
    }
  /** One step of the agent (a trace event, without the prompts it repeats). */
  | { type: "step"; event: StoredTraceEvent }
  /** More text of the reply being generated at `node`. */
  | { type: "text-delta"; node: string; delta: string }
  /** The text streamed so far for `node` is withdrawn (the reply is being generated again). */
  | { type: "text-reset"; node: string }
  /** The turn was committed. `reply` is the final text (what the deltas since the last reset add up to). */
  | { type: "run-finish"; turn: number; reply: string | null; done: boolean; omittedSteps?: number }
  /** The run failed or was stopped; nothing was committed. `code` is the AgentError / StoreError code. */
  | { type: "run-error"; code: string; message: string; omittedSteps?: number };

/** The events after which a run has nothing more to say. */
export const isRunEnd = (e: RunEvent): e is Extract<RunEvent, { type: "run-finish" | "run-error" }> =>
  e.type === "run-finish" || e.type === "run-error";

export interface NumberedRunEvent {
  /** 1, 2, 3, ... within the run: the SSE `id:` a client resumes from. */
  seq: number;
  event: RunEvent;
}

/**
 * Nothing more will be added to the run's events: its end is numbered (stored, for a stored run).
 * Decided here alone, for a run of this process (LiveRun) as for one read from the store. A run
 * `abandoned` (its process is gone before it stored its end) is not over: reading it here
 * (settle-run.ts) writes the end it is owed, and it is over then.
 */
export function isOver(run: { status: string }): boolean {
  return run.status === "finished" || run.status === "failed";
}
