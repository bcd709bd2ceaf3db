/** The messages between a turn pool (the HTTP process's main thread) and its worker threads. */
import type { Memory, MemoryDelta, ReplyChunk } from "@autograms/runtime";
import type { StoredTraceEvent } from "@autograms/store";
import type { TurnBudgets } from "./turn-budget.js";

/** What a worker thread is started with (`workerData`). */
export interface WorkerStart {
  /** Given to the script's agent factory (`serveTurns(makeAgent)`). */
  data: unknown;
  budgets: TurnBudgets;
}

export type ToWorker =
  | { type: "play"; id: number; threadId: string; text: string | null; memory: Memory | null }
  /** Stops the turn (`reason`: the message of its `run-error`). */
  | { type: "stop"; id: number; reason: string }
  | { type: "ping" };

export type FromWorker =
  | { type: "ready" }
  /** The agent factory failed: the pool cannot serve. */
  | { type: "unusable"; message: string }
  | { type: "pong" }
  /** A turn's step events (bounded: see bounded-step.ts) and text, in order, as they come. */
  | { type: "progress"; id: number; items: Progress[] }
  | { type: "played"; id: number; result: PlayedResult }
  | { type: "failed"; id: number; error: { code: string; message: string }; omittedSteps?: number };

export type Progress = { step: StoredTraceEvent } | { text: ReplyChunk };

/** What `Agent.reply` gave, with the turn's whole trace (for the commit). */
export interface PlayedResult {
  reply: string | null;
  memory: Memory;
  delta: MemoryDelta;
  done: boolean;
  trace: StoredTraceEvent[];
  /** Compute steps played in a worker past the stream's bound and not sent (runs/bounded-steps.ts). */
  omittedSteps?: number;
}
