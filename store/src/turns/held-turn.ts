/**
 * A turn in two halves, so that whoever plays the agent need not hold the store: `acquireTurn`
 * takes the thread by the busy policy and loads its memory, then the caller plays the agent
 * wherever it likes (in this process, in a worker thread) and ends with `commit` or `release`.
 * The lease is renewed meanwhile (with the process's others: lease-keeper.ts); `lost` aborts when
 * it is lost.
 */
import { AgentError, shownValue, type Memory, type MemoryDelta, type TraceEvent } from "@autograms/runtime";
import { StoreError } from "../errors.js";
import type {
  AcquireOptions,
  Lease,
  NewTurn,
  PackedTurn,
  RunWrite,
  Store,
  StoredTraceEvent,
  TurnRecord,
} from "../types.js";
import { keepLease } from "./lease-keeper.js";

export interface HeldTurn {
  /** The lease; a commit of the opening (PlayedTurn.opening) that keeps the thread moves it to the next version. */
  lease: Lease;
  /** The thread's memory at the lease's version (null before the first turn, or restarted). */
  memory: Memory | null;
  /** The thread's memory was stale and `onStale` is `restart`: the conversation begins again. */
  restarted: boolean;
  /** The thread's model settings as kept (`setThreadSettings`), text the store does not read; null: none. */
  settings: string | null;
  /** Aborts when the lease is lost (another message interrupted or rolled back this one). */
  lost: AbortSignal;
  /**
   * Commits what the agent answered (compare-and-swap on the lease); then the lease is gone, but
   * for an opening played on a message's lease (PlayedTurn.opening), which keeps the thread for it.
   */
  commit(turn: PlayedTurn): Promise<TurnRecord>;
  /**
   * Gives the thread back unchanged (the turn failed or was stopped). `dropRun`: the turn never
   * began (it was refused), so the run recorded with the lease (`AcquireOptions.runId`) is forgotten.
   */
  release(options?: { dropRun?: boolean }): Promise<void>;
}

/**
 * What playing the agent gave: the reply and memory of `Agent.reply`, with its trace and delta,
 * as objects or already packed where the turn was played (`packTurn`; NewTurn.packed).
 */
export interface PlayedTurn {
  reply: string | null;
  memory: Memory;
  delta?: MemoryDelta;
  trace?: readonly (TraceEvent | StoredTraceEvent)[];
  packed?: PackedTurn;
  startedAt: number;
  /** The events of the run that played the turn, committed with it (NewTurn.run). */
  run?: RunWrite;
  /**
   * The agent's opening, played on the lease a message took on a thread that had no turn yet:
   * committed as the opening (no message id, no user text), and the thread kept for the message,
   * whose turn is played next on the same lease (the held turn's `lease` and `memory` are then
   * that turn's), so that no other message comes between. An opening that ends the conversation
   * gives the thread back.
   */
  opening?: boolean;
}

export const STALE_POLICIES = ["refuse", "restart"] as const;
/**
 * What to do with a thread whose memory cannot resume on the agent (`stale_memory`, after an edit
 * of the agent): `refuse` fails the turn with that error and leaves the thread as it is; `restart`
 * begins the conversation again from the start with this message (its history stays).
 */
export type StalePolicy = (typeof STALE_POLICIES)[number];

/** How `acquireTurn` takes a thread for a turn. */
export interface TurnAcquireOptions extends Omit<AcquireOptions, "user"> {
  /**
   * Answers the thread's last turn, number `replaces`, again (regenerate): the text and message id
   * are that turn's. The agent runs from the memory before it, and the new turn replaces it
   * (`TurnStatus` `replaced`). Refused when the thread has moved on from that turn.
   */
  replaces?: number;
  /**
   * Checks that the memory resumes on the agent that will play the turn (`Agent.checkMemory`),
   * before the turn starts, wherever it is then played.
   */
  checkMemory?: (memory: Memory) => void;
  /** Memory that `checkMemory` finds stale (`StalePolicy`); default `refuse`. */
  onStale?: StalePolicy;
}

/** A message id that had made its turn: the thread was given back at once. */
export interface RepeatedTurn {
  repeated: TurnRecord;
  /** The thread ended with that turn. */
  endedThere: boolean;
}

export type Acquired =
  | (RepeatedTurn & { held?: undefined })
  | { held: HeldTurn; repeated?: undefined; endedThere?: undefined };

/**
 * Takes the thread for `text` (null: the agent's opening turn). A message id whose turn was made
 * while this one waited for the thread gives that turn back (`repeated`), the thread released.
 */
export async function acquireTurn(
  store: Store,
  threadId: string,
  text: string | null,
  options: TurnAcquireOptions = {},
): Promise<Acquired> {
  if (typeof (store as { takeThread?: unknown } | null)?.takeThread !== "function")
    throw new StoreError("bad_request", `store: must be a Store (await openStore(url)), not ${shownValue(store)}`);
  const { replaces, checkMemory, onStale, ...acquiring } = options;
  const messageId = acquiring.messageId ?? null;
  // A message's turn: its id checked and the thread taken in one transaction, with the memory at
  // its head. A message answered again (regenerate) takes the thread whatever its id made.
  const taken =
    replaces === undefined
      ? await store.takeThread(threadId, { ...acquiring, messageId, user: text })
      : {
          lease: await store.acquire(threadId, { ...acquiring, messageId, user: text }),
          memory: null,
          settings: null,
        };
  if (taken.made) return { repeated: taken.made, endedThere: taken.endedThere };
  const { lease } = taken;
  const lost = new AbortController();
  const letGo = keepLease(store, lease, () => lost.abort(lostError(lease)));
  let done = false;
  const release = async (options?: { dropRun?: boolean }) => {
    if (done) return;
    done = true;
    letGo();
    await store.release(lease, options).catch(() => {});
  };
  try {
    if (replaces !== undefined && lease.version !== replaces) {
      throw new StoreError(
        "bad_request",
        `thread ${threadId} has moved on: turn ${replaces} is no longer its last (it has ${lease.version})`,
      );
    }
    const loaded = replaces === undefined ? taken.memory : await store.memoryAt(threadId, replaces - 1);
    const restarted = loaded !== null && checkMemory !== undefined && isStale(loaded, checkMemory, onStale ?? "refuse");
    const memory = restarted ? null : loaded;
    // Read with the memory where the thread was taken for a message; a regenerate reads them apart.
    const settings = replaces === undefined ? taken.settings : await store.threadSettings(threadId);
    const held: HeldTurn = {
      lease,
      memory,
      restarted,
      settings,
      lost: lost.signal,
      release,
      async commit(turn) {
        if (lost.signal.aborted) throw lost.signal.reason;
        const continues = turn.opening === true && !turn.memory.done;
        try {
          const record = await store.commit(held.lease, {
            messageId: turn.opening ? null : messageId,
            user: turn.opening ? null : text,
            reply: turn.reply,
            memory: turn.memory,
            // A replacing turn's delta is from the memory before the turn it replaces, not from the
            // head, and a restart's from no memory: they keep a snapshot.
            ...(replaces !== undefined && { replaces }),
            ...columns(turn, replaces === undefined && !restarted),
            startedAt: turn.startedAt,
            ...(turn.run && { run: turn.run }),
            ...(continues && { continues }),
          });
          if (continues) {
            // Still held (and renewed, by the same token): the message's turn is next.
            held.lease = { ...held.lease, version: record.seq };
            held.memory = turn.memory;
            return record;
          }
          done = true;
          letGo();
          return record;
        } catch (err) {
          await release();
          throw err;
        }
      },
    };
    return { held };
  } catch (err) {
    await release({ dropRun: true });
    throw err;
  }
}

/** The turn's trace and delta for its commit, packed or not as they were given; the delta only if `keepDelta`. */
function columns(turn: PlayedTurn, keepDelta: boolean): Pick<NewTurn, "trace" | "delta" | "packed"> {
  if (turn.packed) return { packed: keepDelta ? turn.packed : { trace: turn.packed.trace, delta: null } };
  return { trace: (turn.trace ?? []) as TraceEvent[], ...(keepDelta && turn.delta && { delta: turn.delta }) };
}

/** Whether the memory is stale and to be restarted; stale with `refuse`, the error. */
function isStale(memory: Memory, checkMemory: (memory: Memory) => void, policy: StalePolicy): boolean {
  if (memory.done) return false;
  try {
    checkMemory(memory);
    return false;
  } catch (err) {
    if (policy === "restart" && err instanceof AgentError && err.code === "stale_memory") return true;
    throw err;
  }
}

function lostError(lease: Lease): StoreError {
  return new StoreError(
    "lease_lost",
    `the run on thread ${lease.threadId} was stopped: its lease was lost (another message took the thread over, or no renewal reached the database within ${lease.ttlMs} ms); nothing was committed`,
  );
}
