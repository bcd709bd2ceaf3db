/**
 * The events a response sends: a run's, from its first, or a replay's. A run's events after a
 * number come as they come, from wherever the run is: from memory when it executes in this
 * process, else from the store, woken by the store's notifications (another process executes it,
 * or executed it and is gone: reading it then writes the end it is owed, settle-run.ts). Reading
 * writes nothing else.
 */
import type { Store } from "@autograms/store";
import type { ServerContext } from "../context.js";
import { HttpError } from "../http/errors.js";
import { knownThread } from "../own-thread.js";
import { isOver, type NumberedRunEvent } from "./run-events.js";
import { eventBatchesAsTheyCome, oneByOne } from "./events-as-they-come.js";
import { settledRun } from "./settle-run.js";
import { replayOf, type RunManager, type Started } from "./run-manager.js";

export type RunSource = Started;

/** The run a source's frames name (a replay names its turn: `turn-N`). */
export function runIdOf(source: RunSource): string {
  if (source.kind === "run") return source.runId;
  const start = source.events[0]!.event;
  return start.type === "run-start" ? start.runId : "";
}

export const eventsOf = (...args: Parameters<typeof eventBatchesOf>) => oneByOne(eventBatchesOf(...args));

/** The same, in the batches they are read in (what the routes turn into frames). */
export function eventBatchesOf(
  ctx: ServerContext,
  source: RunSource,
  afterSeq: number,
  signal: AbortSignal,
): AsyncGenerator<NumberedRunEvent[]> {
  if (source.kind === "replay") return replayed(source.events, afterSeq);
  // A process shutting down ends its streams of other processes' runs at once (the client
  // reconnects to another process); those of its own runs go on until the runs end.
  const until = ctx.runs.liveRun(source.runId) ? signal : AbortSignal.any([signal, ctx.lifecycle.drained]);
  return followRunBatches(ctx.store, ctx.runs, source.runId, afterSeq, until);
}

/** A run's events after `afterSeq`, one at a time, as they come, from wherever the run is. */
export const followRun = (...args: Parameters<typeof followRunBatches>) => oneByOne(followRunBatches(...args));

/** The same, in the batches they are read in. */
function followRunBatches(
  store: Store,
  runs: RunManager,
  runId: string,
  afterSeq: number,
  signal: AbortSignal,
): AsyncGenerator<NumberedRunEvent[]> {
  const live = runs.liveRun(runId);
  if (live) return live.follow(afterSeq, signal);
  return eventBatchesAsTheyCome(
    {
      subscribe: (wake) => store.watchRun(runId, wake),
      read: async (after) => (await store.runEvents(runId, after)) as NumberedRunEvent[],
      async idle(after) {
        // A run whose process died is given its end as it is read here: it is finished or failed then.
        const run = await settledRun(store, runId);
        if (!run || (isOver(run) && run.lastSeq <= after)) return "end";
        return isOver(run) ? "again" : "wait";
      },
    },
    afterSeq,
    signal,
  );
}

async function* replayed(events: NumberedRunEvent[], afterSeq: number): AsyncGenerator<NumberedRunEvent[]> {
  const rest = events.filter((e) => e.seq > afterSeq);
  if (rest.length > 0) yield rest;
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
  await knownThread(ctx.store, ctx.served().name, threadId, ctx.agents.names);
  // A run is recorded as it takes the thread: the latest recorded is the thread's latest.
  const run = await ctx.store.latestRun(threadId);
  return run && { runId: run.id, inProgress: !isOver(run), lastSeq: run.lastSeq };
}

/** A run named by a client (its `Last-Event-ID`, AG-UI's `runId`), and whether it goes on. */
export interface NamedRun {
  source: RunSource;
  inProgress: boolean;
}

/**
 * The thread's run named `runId` (a run is recorded as it takes the thread). A run that is nowhere,
 * although the client was given its id, was refused or forgotten before it began: `run_lost` (410).
 */
export async function namedRun(ctx: ServerContext, threadId: string, runId: string): Promise<NamedRun> {
  const info = await knownThread(ctx.store, ctx.served().name, threadId, ctx.agents.names);
  const replayed = /^turn-(\d+)$/.exec(runId);
  if (replayed) {
    const turn = (await ctx.store.turns(threadId)).find((t) => t.seq === Number(replayed[1]));
    if (turn)
      return {
        source: { kind: "replay", events: replayOf(threadId, turn, info.done && turn.seq === info.version) },
        inProgress: false,
      };
  }
  const live = ctx.runs.liveRun(runId);
  const run = live ?? (await settledRun(ctx.store, runId));
  if (run?.threadId === threadId) return { source: { kind: "run", runId }, inProgress: !isOver(run) };
  throw new HttpError(
    410,
    "run_lost",
    `run ${runId} of thread ${threadId} is not known: it never began (the thread was not taken for it), so its message was not answered (nothing of it was committed); send the message again, with the same id`,
    "Last-Event-ID",
  );
}
