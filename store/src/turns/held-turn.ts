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
  options: Omit<AcquireOptions, "user"> & {
    /**
     * Answers the thread's last turn, this number, again (regenerate): the agent gets the memory
     * before it, and the commit marks it `replaced`. Refused when it is no longer the last.
     */
    replaces?: number;
  } = {},
): Promise<Acquired> {
  const { replaces, ...acquiring } = options;
  const messageId = acquiring.messageId ?? null;
  const lease = await store.acquire(threadId, { ...acquiring, messageId, user: text });
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
    // A run that held the thread before us may have made this message's turn meanwhile (a
    // message answered again is the one message id that runs twice).
    const made = messageId === null || replaces !== undefined ? null : await store.turnByMessage(threadId, messageId);
    if (made) {
      await release();
      return { repeated: made };
    }
    if (replaces !== undefined && lease.version !== replaces) {
      throw new StoreError("bad_request", `thread ${threadId} has moved on: turn ${replaces} is no longer its last (it has ${lease.version})`);
    }
    const memory = replaces === undefined ? (await store.load(threadId)).memory : await store.memoryAt(threadId, replaces - 1);
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
              // A replacing turn's delta is from the memory before the turn it replaces, not from the head: it keeps a snapshot.
              ...(replaces === undefined ? turn.delta && { delta: turn.delta } : { replaces }),
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
