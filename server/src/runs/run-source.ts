/** The events a response sends: a run's, from its first (where ever it executes), or a replay's. */
import type { RunRecord, ThreadInfo } from "@autograms/store";
import type { ServerContext } from "../context.js";
import { knownThread } from "../own-thread.js";
import type { NumberedRunEvent } from "../run-events.js";
import { followRun } from "./follow-run.js";
import { RECORD_WAIT_MS } from "./live-run.js";
import type { Started } from "./run-manager.js";

export type RunSource = Started;

export async function* eventsOf(ctx: ServerContext, source: RunSource, afterSeq: number, signal: AbortSignal): AsyncGenerator<NumberedRunEvent> {
  if (source.kind === "replay") {
    for (const e of source.events) if (e.seq > afterSeq) yield e;
    return;
  }
  // A process shutting down ends its streams of other processes' runs at once (the client
  // reconnects to another process); those of its own runs go on until the runs end.
  const until = ctx.runs.liveRun(source.runId) ? signal : AbortSignal.any([signal, ctx.lifecycle.drained]);
  yield* followRun(ctx.store, ctx.runs, source.runId, afterSeq, until);
}

export interface LatestRun {
  runId: string;
  /** Still going (a reconnect without a last event number resumes only such a run). */
  inProgress: boolean;
  /** The number of its last stored event (of its last event, for a run of this process). */
  lastSeq: number;
}

/** The thread's latest run, for a client reconnecting: null when it has none. */
export async function latestRun(ctx: ServerContext, threadId: string): Promise<LatestRun | null> {
  const live = ctx.runs.liveOn(threadId);
  if (live) return { runId: live.id, inProgress: true, lastSeq: live.events.length };
  let thread: ThreadInfo | null = await knownThread(ctx.store, ctx.agent.graph.agent, threadId);
  const deadline = Date.now() + RECORD_WAIT_MS;
  for (;;) {
    const run = await ctx.store.latestRun(threadId);
    const inProgress = run !== null && !ended(run);
    // A run records itself with its first batch of events: when the thread is taken and the latest
    // run recorded is over, the run that took it (in another process) may be moments from recording.
    if (inProgress || !thread?.running || Date.now() >= deadline) return run && { runId: run.id, inProgress, lastSeq: run.lastSeq };
    await new Promise((r) => setTimeout(r, 25));
    thread = await ctx.store.thread(threadId);
  }
}

const ended = (run: RunRecord) => run.status === "finished" || run.status === "failed";
