/**
 * One turn of a stored conversation: lease the thread, load its memory, let the agent reply
 * (no database transaction open meanwhile; the lease is renewed), then commit with
 * compare-and-swap. A failure anywhere before the commit leaves the thread as it was.
 */
import { AgentError, type Agent, type Memory, type ReplyChunk, type TraceEvent, type TraceSink } from "@autograms/runtime";
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
   * A thread whose memory cannot resume on this agent (`stale_memory`, after an edit of the agent):
   * `refuse` (default) fails the turn with that error and leaves the thread as it is; `restart`
   * begins the conversation again from the start with this message (its history stays).
   */
  onStale?: StalePolicy;
}

export const STALE_POLICIES = ["refuse", "restart"] as const;
export type StalePolicy = (typeof STALE_POLICIES)[number];

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
export async function runTurn(store: Store, agent: Agent, threadId: string, text: string | null, options: TurnOptions = {}): Promise<TurnOutcome> {
  const { messageId, trace: forward, onText, onStart, onStale, ...acquire } = options;
  const before = messageId === undefined ? null : await store.turnByMessage(threadId, messageId);
  if (before) return repeated(before);
  const lease = await store.acquire(threadId, { ...acquire, messageId: messageId ?? null, user: text });
  const lost = new AbortController();
  const heartbeat = setInterval(() => {
    store.renew(lease).then((held) => held || lost.abort(), () => {});
  }, Math.max(50, lease.ttlMs / 3));
  let committed = false;
  try {
    // A run that held the thread before us may have made this message's turn meanwhile.
    const made = messageId === undefined ? null : await store.turnByMessage(threadId, messageId);
    if (made) return repeated(made);
    // Memory that cannot resume on this agent is refused (or restarted) before the run starts.
    const loaded = (await store.load(threadId)).memory;
    const restarted = loaded !== null && isStale(agent, loaded, onStale ?? "refuse");
    const memory = restarted ? null : loaded;
    await onStart?.(lease);
    const events: TraceEvent[] = [];
    const sink: TraceSink = (e) => {
      events.push(e);
      forward?.(e);
    };
    const startedAt = Date.now();
    const result = await untilLost(agent.reply(text ?? "", memory ?? undefined, { trace: sink, ...(onText && { onText }) }), lost.signal, lease, acquire.signal);
    const turn = await store.commit(lease, {
      messageId: messageId ?? null, user: text, reply: result.reply, memory: result.memory,
      // A restart's delta starts from no memory, not from the thread's: the store keeps a snapshot instead.
      ...(!restarted && { delta: result.delta }),
      trace: events, startedAt,
    });
    committed = true;
    return { turn, reply: result.reply, memory: result.memory, done: result.done, repeated: false, ...(restarted && { restarted }) };
  } finally {
    clearInterval(heartbeat);
    if (!committed) await store.release(lease).catch(() => {});
  }
}

/** Whether the memory is stale on this agent and to be restarted; stale with `refuse`, the error. */
function isStale(agent: Agent, memory: Memory, policy: StalePolicy): boolean {
  if (memory.done) return false;
  try {
    agent.checkMemory(memory);
    return false;
  } catch (err) {
    if (policy === "restart" && err instanceof AgentError && err.code === "stale_memory") return true;
    throw err;
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
