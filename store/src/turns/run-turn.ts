/**
 * One turn of a stored conversation: lease the thread, load its memory, let the agent reply
 * (no database transaction open meanwhile; the lease is renewed), then commit with
 * compare-and-swap. A failure anywhere before the commit leaves the thread as it was.
 */
import type { Agent, Memory, ReplyChunk, RunOptions, TraceEvent, TraceSink } from "@autograms/runtime";
import type { AcquireOptions, PackedTurn, Store, TurnRecord } from "../types.js";
import { acquireTurn, type StalePolicy } from "./held-turn.js";
import { StoreError } from "../errors.js";
import { describe } from "../arguments.js";

export interface TurnOptions extends Omit<AcquireOptions, "messageId" | "user" | "create"> {
  /** The user message's id: sending the same id again returns the turn it made instead of a second one. */
  messageId?: string;
  /** Receives the turn's trace events as they happen. */
  trace?: TraceSink;
  /** Receives the reply's text as it is written (`RunOptions.onText`). */
  onText?: (chunk: ReplyChunk) => void;
  /** Awaited before each step (`RunOptions.pause`): a long turn may let the event loop turn there. */
  pause?: RunOptions["pause"];
  /**
   * Answers the thread's last turn, number `replaces`, again (regenerate): `text` and `messageId`
   * are that turn's. The agent runs from the memory before it, and the new turn replaces it
   * (`TurnStatus` `replaced`). Refused when the thread has moved on from that turn.
   */
  replaces?: number;
  /**
   * A thread whose memory cannot resume on this agent (`stale_memory`, after an edit of the agent):
   * `refuse` (default) fails the turn with that error and leaves the thread as it is; `restart`
   * begins the conversation again from the start with this message (its history stays).
   */
  onStale?: StalePolicy;
  /**
   * Plays the turn somewhere else than this thread (a worker thread that loaded the agent's code),
   * from the thread's memory, until `signal` aborts it: what it gives is committed. `agent` then
   * checks the memory before the turn and plays nothing; `trace`, `onText` and `pause` are the
   * player's to honour.
   */
  play?: (memory: Memory | null, signal: AbortSignal) => Promise<PlayedElsewhere>;
}

/** What a turn played elsewhere gave: `Agent.reply`'s reply, memory and end, its trace packed (`packTurn`). */
export interface PlayedElsewhere {
  reply: string | null;
  memory: Memory;
  done: boolean;
  packed: PackedTurn;
}

export interface TurnOutcome {
  turn: TurnRecord;
  reply: string | null;
  memory: Memory | null;
  /** The conversation reached `quit`. */
  done: boolean;
  /** The message id had already made this turn; nothing ran. */
  repeated: boolean;
  /** The thread's memory was stale and `onStale: "restart"` began the conversation again. */
  restarted?: boolean;
}

/**
 * Sends `text` to the thread (made if new). `text` null on a new thread is the agent's opening
 * turn, which it speaks first, with no user message.
 */
export async function runTurn(
  store: Store,
  agent: Agent,
  threadId: string,
  text: string | null,
  options: TurnOptions = {},
): Promise<TurnOutcome> {
  // The store is checked by acquireTurn; the agent is first used once the thread is taken.
  if (typeof (agent as { reply?: unknown } | null)?.reply !== "function")
    throw new StoreError(
      "bad_request",
      `agent: must be an Agent (new Agent(graph, { model })), not ${describe(agent)}`,
    );
  const { messageId, trace: forward, onText, pause, replaces, onStale, play, ...acquire } = options;
  // A message id that made its turn gives it back (acquireTurn checks it as it takes the thread).
  const { held, repeated: made } = await acquireTurn(store, threadId, text, {
    ...acquire,
    messageId: messageId ?? null,
    // Memory that cannot resume on this agent is refused (or restarted) before the run starts.
    checkMemory: (memory) => agent.checkMemory(memory),
    ...(onStale && { onStale }),
    ...(replaces !== undefined && { replaces }),
  });
  if (made) return repeated(made);
  try {
    const startedAt = Date.now();
    const stop = acquire.signal ? AbortSignal.any([held.lost, acquire.signal]) : held.lost;
    if (play) {
      const result = await untilStopped(play(held.memory, stop), stop);
      const { reply, memory, done, packed } = result;
      const turn = await held.commit({ reply, memory, packed, startedAt });
      return { turn, reply, memory, done, repeated: false, ...(held.restarted && { restarted: true }) };
    }
    const events: TraceEvent[] = [];
    const sink: TraceSink = (e) => {
      events.push(e);
      forward?.(e);
    };
    // The agent stops too (its model request is aborted) when the run is dropped.
    const result = await untilStopped(
      agent.reply(text ?? "", held.memory ?? undefined, {
        trace: sink,
        signal: stop,
        conversationId: threadId,
        ...(onText && { onText }),
        ...(pause && { pause }),
      }),
      stop,
    );
    const turn = await held.commit({
      reply: result.reply,
      memory: result.memory,
      delta: result.delta,
      trace: events,
      startedAt,
    });
    return {
      turn,
      reply: result.reply,
      memory: result.memory,
      done: result.done,
      repeated: false,
      ...(held.restarted && { restarted: true }),
    };
  } finally {
    await held.release();
  }
}

function repeated(turn: TurnRecord): TurnOutcome {
  return { turn, reply: turn.reply, memory: null, done: false, repeated: true };
}

/**
 * The run's result, unless `stop` aborts first (its lease taken over: interrupt, rollback; or the
 * caller gives up, e.g. Ctrl-C): then it is dropped, and the lease released at once.
 */
function untilStopped<T>(run: Promise<T>, stop: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onStop = () => reject(stop.reason ?? new Error("stopped"));
    stop.addEventListener("abort", onStop, { once: true });
    if (stop.aborted) onStop();
    run.then(resolve, reject).finally(() => stop.removeEventListener("abort", onStop));
  });
}
