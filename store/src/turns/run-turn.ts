/**
 * One turn of a stored conversation: lease the thread, load its memory, let the agent reply
 * (no database transaction open meanwhile; the lease is renewed), then commit with
 * compare-and-swap. A failure anywhere before the commit leaves the thread as it was.
 */
import type { Agent, Memory, ReplyChunk, TraceEvent, TraceSink } from "@autograms/runtime";
import { StoreError } from "../errors.js";
import type { AcquireOptions, Lease, Store, TurnRecord } from "../types.js";

export interface TurnOptions extends Omit<AcquireOptions, "messageId" | "user" | "create"> {
  /** The user message's id: sending the same id again returns the turn it made instead of a second one. */
  messageId?: string;
  /** Receives the turn's trace events as they happen. */
  trace?: TraceSink;
  /** Receives the reply's text as it is written (`RunOptions.onText`). */
  onText?: (chunk: ReplyChunk) => void;
  /**
   * Called once the thread is taken for this message (after the busy policy, before the agent
   * runs), with the lease: a server records the run here. Not called for a repeated message id.
   */
  onStart?: (lease: Lease) => void | Promise<void>;
  /**
   * Answers the thread's last turn, number `replaces`, again (regenerate): `text` and `messageId`
   * are that turn's. The agent runs from the memory before it, and the new turn replaces it
   * (`TurnStatus` `replaced`). Refused when the thread has moved on from that turn.
   */
  replaces?: number;
}

export interface TurnOutcome {
  turn: TurnRecord;
  reply: string | null;
  memory: Memory | null;
  /** The conversation reached `quit`. */
  done: boolean;
  /** The message id had already made this turn; nothing ran. */
  repeated: boolean;
}

/**
 * Sends `text` to the thread (made if new). `text` null on a new thread is the agent's opening
 * turn, which it speaks first, with no user message.
 */
export async function runTurn(store: Store, agent: Agent, threadId: string, text: string | null, options: TurnOptions = {}): Promise<TurnOutcome> {
  const { messageId, trace: forward, onText, onStart, replaces, ...acquire } = options;
  // A message answered again is the one message id that runs twice.
  const once = replaces === undefined ? messageId : undefined;
  const before = once === undefined ? null : await store.turnByMessage(threadId, once);
  if (before) return repeated(before);
  const lease = await store.acquire(threadId, { ...acquire, messageId: messageId ?? null, user: text });
  const lost = new AbortController();
  const heartbeat = setInterval(() => {
    store.renew(lease).then((held) => held || lost.abort(), () => {});
  }, Math.max(50, lease.ttlMs / 3));
  let committed = false;
  try {
    // A run that held the thread before us may have made this message's turn meanwhile.
    const made = once === undefined ? null : await store.turnByMessage(threadId, once);
    if (made) return repeated(made);
    if (replaces !== undefined && lease.version !== replaces) {
      throw new StoreError("bad_request", `thread ${threadId} has moved on: turn ${replaces} is no longer its last (it has ${lease.version})`);
    }
    await onStart?.(lease);
    const memory = replaces === undefined ? (await store.load(threadId)).memory : await store.memoryAt(threadId, replaces - 1);
    const events: TraceEvent[] = [];
    const sink: TraceSink = (e) => {
      events.push(e);
      forward?.(e);
    };
    const startedAt = Date.now();
    // The agent stops too (its model request is aborted) when the run is dropped.
    const signal = acquire.signal ? AbortSignal.any([lost.signal, acquire.signal]) : lost.signal;
    const result = await untilLost(agent.reply(text ?? "", memory ?? undefined, { trace: sink, signal, ...(onText && { onText }) }), lost.signal, lease, acquire.signal);
    const turn = await store.commit(lease, {
      messageId: messageId ?? null, user: text, reply: result.reply, memory: result.memory,
      // A replacing turn's delta is from the memory before the turn it replaces, not from the head: it keeps a snapshot.
      ...(replaces === undefined ? { delta: result.delta } : { replaces }),
      trace: events, startedAt,
    });
    committed = true;
    return { turn, reply: result.reply, memory: result.memory, done: result.done, repeated: false };
  } finally {
    clearInterval(heartbeat);
    if (!committed) await store.release(lease).catch(() => {});
  }
}

function repeated(turn: TurnRecord): TurnOutcome {
  return { turn, reply: turn.reply, memory: null, done: false, repeated: true };
}

/**
 * The run's result, unless its lease is taken over first (interrupt, rollback) or the caller
 * gives up (`stop`, e.g. Ctrl-C): then it is dropped, and the lease released at once.
 */
function untilLost<T>(run: Promise<T>, lost: AbortSignal, lease: Lease, stop: AbortSignal | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onLost = () => reject(new StoreError("lease_lost", `the run on thread ${lease.threadId} was stopped: another message took the thread over; nothing was committed`));
    const onStop = () => reject(stop!.reason ?? new Error("stopped"));
    lost.addEventListener("abort", onLost, { once: true });
    stop?.addEventListener("abort", onStop, { once: true });
    if (stop?.aborted) onStop();
    run.then(resolve, reject).finally(() => {
      lost.removeEventListener("abort", onLost);
      stop?.removeEventListener("abort", onStop);
    });
  });
}
