/**
 * A turn in two halves, so that whoever plays the agent need not hold the store: `acquireTurn`
 * takes the thread by the busy policy and loads its memory, then the caller plays the agent
 * wherever it likes (in this process, in a worker thread) and ends with `commit` or `release`.
 * The lease is renewed meanwhile; `lost` aborts when another message takes the thread over.
 */
import type { Memory, MemoryDelta, TraceEvent } from "@autograms/runtime";
import { StoreError } from "../errors.js";
import type { AcquireOptions, Lease, Store, TurnRecord } from "../types.js";
import type { StoredTraceEvent } from "../types.js";

export interface HeldTurn {
  lease: Lease;
  /** The thread's memory at the lease's version (null before the first turn). */
  memory: Memory | null;
  /** Aborts when the lease is lost (another message interrupted or rolled back this one). */
  lost: AbortSignal;
  /** Commits what the agent answered (compare-and-swap on the lease); then the lease is gone. */
  commit(turn: PlayedTurn): Promise<TurnRecord>;
  /** Gives the thread back unchanged (the turn failed or was stopped). */
  release(): Promise<void>;
}

/** What playing the agent gave: the reply and memory of `Agent.reply`, with its trace. */
export interface PlayedTurn {
  reply: string | null;
  memory: Memory;
  delta?: MemoryDelta;
  trace: readonly (TraceEvent | StoredTraceEvent)[];
  startedAt: number;
}

export type Acquired = { repeated: TurnRecord; held?: undefined } | { held: HeldTurn; repeated?: undefined };

/**
 * Takes the thread for `text` (null: the agent's opening turn). A message id whose turn was made
 * while this one waited for the thread gives that turn back (`repeated`), the thread released.
 */
export async function acquireTurn(
  store: Store,
  threadId: string,
  text: string | null,
  options: Omit<AcquireOptions, "user"> = {},
): Promise<Acquired> {
  const messageId = options.messageId ?? null;
  const lease = await store.acquire(threadId, { ...options, messageId, user: text });
  const lost = new AbortController();
  const heartbeat = setInterval(
    () => {
      store.renew(lease).then(
        (held) => held || lost.abort(lostError(lease)),
        () => {},
      );
    },
    Math.max(50, lease.ttlMs / 3),
  );
  let done = false;
  const release = async () => {
    if (done) return;
    done = true;
    clearInterval(heartbeat);
    await store.release(lease).catch(() => {});
  };
  try {
    // A run that held the thread before us may have made this message's turn meanwhile.
    const made = messageId === null ? null : await store.turnByMessage(threadId, messageId);
    if (made) {
      await release();
      return { repeated: made };
    }
    const { memory } = await store.load(threadId);
    return {
      held: {
        lease,
        memory,
        lost: lost.signal,
        release,
        async commit(turn) {
          if (lost.signal.aborted) throw lost.signal.reason;
          try {
            const record = await store.commit(lease, {
              messageId,
              user: text,
              reply: turn.reply,
              memory: turn.memory,
              ...(turn.delta && { delta: turn.delta }),
              trace: turn.trace as TraceEvent[],
              startedAt: turn.startedAt,
            });
            done = true;
            clearInterval(heartbeat);
            return record;
          } catch (err) {
            await release();
            throw err;
          }
        },
      },
    };
  } catch (err) {
    await release();
    throw err;
  }
}

function lostError(lease: Lease): StoreError {
  return new StoreError(
    "lease_lost",
    `the run on thread ${lease.threadId} was stopped: another message took the thread over; nothing was committed`,
  );
}
