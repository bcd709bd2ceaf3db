/**
 * A run's span tree (`GET /api/runs/:id/spans`), made from what the store keeps: the turns the run
 * committed (two for a new thread: the agent's opening, then the answer), or, for a run that
 * committed nothing (failed, stopped, still running), the steps it streamed as its events.
 */
import type { StoredTraceEvent } from "@autograms/runtime";
import type { Store, TurnRecord } from "@autograms/store";
import { HttpError } from "../http/errors.js";
import type { Prices } from "../usage/prices.js";
import { turnSpan } from "./span-tree.js";

type RunRecord = NonNullable<Awaited<ReturnType<Store["run"]>>>;

/** The most events of an uncommitted run read for its tree: past them the tree says it was cut (`cut`). */
const MAX_RUN_EVENTS = 20_000;

export async function runSpans(store: Store, runId: string, prices: Prices | undefined) {
  const run = await store.run(runId);
  const thread = run && (await store.thread(run.threadId));
  if (!run || !thread) throw new HttpError(404, "unknown_run", `no run '${runId}'`);
  const shown = { ...run, agent: thread.agent };
  if (run.status === "finished" || run.status === "committed") {
    // The run's turn, and the agent's opening before it when the run played that too: a turn with
    // no message committed after the run began. Read from the turns, which stay, not from the
    // run's start event, which goes with its events after the resume window.
    const turns = (await store.turns(run.threadId)).filter(
      (t) => t.seq === run.turn || (t.seq === run.turn - 1 && t.user === null && t.committedAt >= run.startedAt),
    );
    return { run: shown, spans: turns.map((t) => turnSpan(committedSteps(t, run), prices)) };
  }
  const events = await store.runEvents(run.id, 0, MAX_RUN_EVENTS + 1);
  const trace: StoredTraceEvent[] = [];
  let error: unknown;
  for (const { event } of events.slice(0, MAX_RUN_EVENTS)) {
    const e = event as { type?: string; event?: StoredTraceEvent };
    if (e.type === "step" && e.event) trace.push(e.event);
    if (e.type === "run-error") error = event;
  }
  const span = turnSpan(
    {
      seq: run.turn,
      user: run.user,
      reply: null,
      status: run.status,
      start: 0,
      ms: run.status === "running" ? null : run.updatedAt - run.startedAt,
      trace,
    },
    prices,
  );
  if (error !== undefined) span.attributes.error = error;
  return { run: shown, spans: [span], ...(events.length > MAX_RUN_EVENTS && { cut: true as const }) };
}

function committedSteps(t: TurnRecord, run: RunRecord) {
  return {
    seq: t.seq,
    user: t.user,
    reply: t.reply,
    status: t.status,
    start: Math.max(0, t.startedAt - run.startedAt),
    ms: t.committedAt - t.startedAt,
    trace: t.trace,
  };
}
