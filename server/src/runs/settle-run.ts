/**
 * The end a run is owed when its process died before writing it: `run-finish` when its turn was
 * committed (with what its stored events lack of the reply first), else `run-error` `run_lost`.
 * The store only says such a run is `abandoned`; the first reader that reads it by id here writes
 * its end, as any end is written (`appendRunEvents`), so every reader, in any process, finds a run
 * that ends; a second writer finds it written and adds nothing.
 */
import type { Store } from "@autograms/store";
import type { NumberedRunEvent, RunEvent } from "./run-events.js";
import { replyNode, restOfReply, sentOfReply } from "./reply-text.js";

/** The run as stored, its end written first if its process is gone without writing it. */
export async function settledRun(store: Store, runId: string) {
  const run = await store.run(runId);
  if (run?.status !== "abandoned") return run;
  const turn =
    run.messageId !== null
      ? await store.turnByMessage(run.threadId, run.messageId)
      : ((await store.turns(run.threadId).catch(() => [])).find((t) => t.seq === run.turn && t.messageId === null) ??
        null);
  const end: RunEvent[] = [];
  if (turn && turn.seq === run.turn && turn.status === "ok") {
    // The stored events may have given part of the reply (its process died between batches), or
    // in a run that opened the thread, the opening's reply only: the rest of it comes first.
    const stored = (await store.runEvents(run.id)) as NumberedRunEvent[];
    const node = replyNode(turn.trace);
    end.push(...restOfReply(node, sentOfReply(stored, node), turn.reply));
    const thread = await store.thread(run.threadId);
    end.push({
      type: "run-finish",
      turn: turn.seq,
      reply: turn.reply,
      done: thread?.done === true && thread.version === turn.seq,
    });
  } else {
    end.push({
      type: "run-error",
      code: "run_lost",
      message:
        "the process serving this run stopped before it finished; the message was not answered (nothing of it was committed)",
    });
  }
  await store.appendRunEvents(
    run.id,
    end.map((event, i) => ({ seq: run.lastSeq + 1 + i, event })),
    end.at(-1)!.type === "run-finish" ? "finished" : "failed",
  );
  return store.run(runId);
}
