/**
 * A run's events after a number, as they come, from wherever the run is: from memory when it
 * executes in this process, else from the store, woken by the store's notifications (another
 * process executes it, or executed it and is gone). A run whose process died before its end is
 * given the end it is owed, once, in the store: `run-finish` if its turn was committed, else
 * `run-error` `run_lost`.
 */
import type { RunRecord, Store } from "@autograms/store";
import type { NumberedRunEvent, RunEvent } from "../run-events.js";
import { eventsAsTheyCome } from "./events-as-they-come.js";
import { replyNode, restOfReply, sentOfReply } from "./reply-node.js";
import type { RunManager } from "./run-manager.js";

export function followRun(store: Store, runs: RunManager, runId: string, afterSeq: number, signal: AbortSignal): AsyncGenerator<NumberedRunEvent> {
  const live = runs.liveRun(runId);
  if (live) return live.follow(afterSeq, signal);
  return eventsAsTheyCome({
    subscribe: (wake) => store.watchRun(runId, wake),
    read: async (after) => (await store.runEvents(runId, after)) as NumberedRunEvent[],
    async idle(after) {
      const run = await store.run(runId);
      if (!run || ((run.status === "finished" || run.status === "failed") && run.lastSeq <= after)) return "end";
      if (run.status !== "abandoned") return "wait";
      await settle(store, run);
      return "again";
    },
  }, afterSeq, signal);
}

/** Writes the end of a run whose process is gone (another reader may have written it first: then nothing). */
async function settle(store: Store, run: RunRecord): Promise<void> {
  const turn = run.messageId !== null
    ? await store.turnByMessage(run.threadId, run.messageId)
    : (await store.turns(run.threadId).catch(() => [])).find((t) => t.seq === run.turn && t.messageId === null) ?? null;
  const end: RunEvent[] = [];
  if (turn && turn.seq === run.turn && turn.status === "ok") {
    // The stored events may have given part of the reply (its process died between batches), or
    // in a run that opened the thread, the opening's reply only: the rest of it comes first.
    const stored = (await store.runEvents(run.id)) as NumberedRunEvent[];
    const node = replyNode(turn.trace);
    end.push(...restOfReply(node, sentOfReply(stored, node), turn.reply));
    const thread = await store.thread(run.threadId);
    end.push({ type: "run-finish", turn: turn.seq, reply: turn.reply, done: thread !== null && thread.done && thread.version === turn.seq });
  } else {
    end.push({ type: "run-error", code: "run_lost", message: "the process serving this run stopped before it finished; the message was not answered (nothing of it was committed)" });
  }
  await store.appendRunEvents(run.id, end.map((event, i) => ({ seq: run.lastSeq + 1 + i, event })), end.at(-1)!.type === "run-finish" ? "finished" : "failed");
}
