/** The events a response sends: a run's, from its first (where ever it executes), or a replay's. */
import type { RunRecord, Store } from "@autograms/store";
import type { ServerContext } from "../context.js";
import { HttpError } from "../http/errors.js";
import type { NumberedRunEvent } from "../run-events.js";
import { followRun } from "./follow-run.js";
import type { Started } from "./run-manager.js";

export type RunSource = Started;

export async function* eventsOf(ctx: ServerContext, source: RunSource, afterSeq: number, signal: AbortSignal): AsyncGenerator<NumberedRunEvent> {
  if (source.kind === "replay") {
    for (const e of source.events) if (e.seq > afterSeq) yield e;
    return;
  }
  yield* followRun(ctx.store, ctx.runs, source.runId, afterSeq, signal);
}

/**
 * The thread's latest run, for a client reconnecting: null when it has none. `inProgress` tells
 * whether it is still going (a reconnect without a last event number resumes only such a run).
 */
export async function latestRun(store: Store, threadId: string): Promise<{ run: RunRecord; inProgress: boolean } | null> {
  if (!(await store.thread(threadId))) throw new HttpError(404, "unknown_thread", `no thread '${threadId}'`);
  const run = await store.latestRun(threadId);
  if (!run) return null;
  return { run, inProgress: run.status !== "finished" && run.status !== "failed" };
}
