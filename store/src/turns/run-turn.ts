/**
 * The one turn runner of a stored conversation, for every command that plays one (`chat --store`,
 * `autograms mcp`, `run`, `serve`): take the thread (busy policy, message id, stale memory), play
 * the agent (no database transaction open meanwhile; the lease is renewed), commit with
 * compare-and-swap. A failure anywhere before the commit leaves the thread as it was.
 *
 * `takeTurn` and `TakenTurn.play` are its two halves, for a caller that answers once the thread is
 * taken and lets the turn play on (the server); `runTurn` is both at once.
 */
import {
  shownValue,
  type Agent,
  type Memory,
  type ReplyChunk,
  type RunOptions,
  type TraceEvent,
  type TraceSink,
} from "@autograms/runtime";
import type { Lease, PackedTurn, RunWrite, Store, TurnRecord } from "../types.js";
import {
  acquireTurn,
  type HeldTurn,
  type PlayedTurn,
  type RepeatedTurn,
  type TurnAcquireOptions,
} from "./held-turn.js";
import { messageConflict, StoreError } from "../errors.js";

/** How a thread is taken for a turn. */
export interface TakeOptions extends Omit<TurnAcquireOptions, "messageId" | "create" | "checkMemory"> {
  /** The user message's id: sending the same id again returns the turn it made instead of a second one. */
  messageId?: string;
  /**
   * A message to a thread that has had no turn yet (as the lease taken tells: another caller may
   * have made the opening while this one waited) is answered after the agent's opening, played
   * first on the same lease, whose commit keeps the thread for the message: no message queued
   * behind it comes between, and the lease names the message, so the message sent again meanwhile
   * is told apart. Without it, the message is answered from no memory, in one turn.
   */
  openingFirst?: boolean;
}

export interface TurnOptions extends TakeOptions {
  /** Receives the turn's trace events as they happen. */
  trace?: TraceSink;
  /** Receives the reply's text as it is written (`RunOptions.onText`). */
  onText?: (chunk: ReplyChunk) => void;
  /** Awaited before each step (`RunOptions.pause`): a long turn may let the event loop turn there. */
  pause?: RunOptions["pause"];
  /**
   * Plays the turn somewhere else than this thread (a worker thread that loaded the agent's code),
   * from the thread's memory, until `signal` aborts it: what it gives is committed. `text` is the
   * message played (null: the opening, with `openingFirst`). `agent` then checks the memory
   * before the turn and plays nothing; `trace`, `onText` and `pause` are the player's to honour.
   */
  play?: (memory: Memory | null, signal: AbortSignal, text: string | null) => Promise<PlayedElsewhere>;
}

/** What playing one turn gave, wherever it was played: `Agent.reply`'s reply, memory and end, with its trace (or packed). */
export interface Played extends Pick<PlayedTurn, "reply" | "memory" | "delta" | "trace" | "packed"> {
  done: boolean;
}

/** What a turn played elsewhere gave: `Agent.reply`'s reply, memory and end, its trace packed (`packTurn`). */
export type PlayedElsewhere = Pick<Played, "reply" | "memory" | "done"> & { packed: PackedTurn };

/** How a taken turn is played and committed. */
export interface Playing<P extends Played> {
  /** Plays `text` (null: the opening) from `memory` until `signal` aborts it. */
  play(text: string | null, memory: Memory | null, signal: AbortSignal): Promise<P>;
  /**
   * Commits a played turn by calling `commit` (with `run`, the events of the run that played it,
   * written in the same transaction), given whether it is the run's `last` turn; the default
   * commits it alone.
   */
  commit?(played: P, last: boolean, commit: (run?: RunWrite) => Promise<TurnRecord>): Promise<TurnRecord>;
  /** Stops the run (with its lease lost, it stops anyway). */
  signal?: AbortSignal;
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

/** The thread, taken for a run of one turn, or two with the opening first (`openingFirst`). */
export class TakenTurn {
  constructor(
    private readonly held: HeldTurn,
    private readonly text: string | null,
    /** The agent's opening is played first, on this lease (`openingFirst`). */
    readonly openingFirst: boolean,
  ) {}

  // What HeldTurn says of the thread as it was taken.
  get lease(): Lease {
    return this.held.lease;
  }

  get memory(): Memory | null {
    return this.held.memory;
  }

  get settings(): string | null {
    return this.held.settings;
  }

  /** The number the run's (last) turn will have once committed. */
  get turn(): number {
    return this.held.lease.version + (this.openingFirst ? 2 : 1);
  }

  get restarted(): boolean {
    return this.held.restarted;
  }

  /** Plays the run's turns and commits each; the thread is given back whatever happens. */
  async play<P extends Played>(how: Playing<P>): Promise<TurnOutcome> {
    const stop = how.signal ? AbortSignal.any([this.held.lost, how.signal]) : this.held.lost;
    try {
      if (this.openingFirst) {
        // An opening that ends the conversation ends the run: the message has no one to answer it.
        const opening = await this.playOne(how, null, stop, true);
        if (opening.done) return opening;
      }
      return await this.playOne(how, this.text, stop, false);
    } finally {
      // Committed, the lease is gone already; an opening's commit kept it for the message.
      await this.held.release();
    }
  }

  /** Gives the thread back unchanged, without playing: the run recorded with it is forgotten. */
  release(): Promise<void> {
    return this.held.release({ dropRun: true });
  }

  private async playOne<P extends Played>(
    how: Playing<P>,
    text: string | null,
    stop: AbortSignal,
    opening: boolean,
  ): Promise<TurnOutcome> {
    const startedAt = Date.now();
    const played = await how.play(text, this.held.memory, stop);
    const commit = (run?: RunWrite) =>
      this.held.commit({ ...played, startedAt, ...(run && { run }), ...(opening && { opening }) });
    const last = !opening || played.done;
    const turn = how.commit ? await how.commit(played, last, commit) : await commit();
    const { reply, memory, done } = played;
    return { turn, reply, memory, done, repeated: false, ...(this.held.restarted && { restarted: true }) };
  }
}

/**
 * Takes the thread for `text` (null: the agent's opening turn, on a new thread). A message id
 * that made its turn gives it back (the same id with another text is a conflict), the thread
 * released; else the thread is held until the turn is played or released.
 */
export async function takeTurn(
  store: Store,
  agent: Agent,
  threadId: string,
  text: string | null,
  options: TakeOptions = {},
): Promise<TakenTurn | RepeatedTurn> {
  // The store is checked by acquireTurn; the agent is first used once the thread is taken.
  if (typeof (agent as { reply?: unknown } | null)?.reply !== "function")
    throw new StoreError(
      "bad_request",
      `agent: must be an Agent (new Agent(graph, { model })), not ${shownValue(agent)}`,
    );
  const { messageId, replaces, onStale, openingFirst, ...acquire } = options;
  const { held, repeated, endedThere } = await acquireTurn(store, threadId, text, {
    ...acquire,
    messageId: messageId ?? null,
    // Memory that cannot resume on this agent is refused (or restarted) before the run starts.
    checkMemory: (memory) => agent.checkMemory(memory),
    ...(onStale && { onStale }),
    ...(replaces !== undefined && { replaces }),
  });
  if (repeated) {
    if (repeated.user !== text) throw messageConflict(threadId, messageId!);
    return { repeated, endedThere };
  }
  const message = text !== null && replaces === undefined;
  return new TakenTurn(held, text, openingFirst === true && message && held.lease.version === 0);
}

/**
 * Sends `text` to the thread (made if new) and plays its turn. `text` null on a new thread is
 * the agent's opening turn, which it speaks first, with no user message.
 */
export async function runTurn(
  store: Store,
  agent: Agent,
  threadId: string,
  text: string | null,
  options: TurnOptions = {},
): Promise<TurnOutcome> {
  const { trace: forward, onText, pause, play, ...taking } = options;
  const taken = await takeTurn(store, agent, threadId, text, taking);
  if (!(taken instanceof TakenTurn)) {
    const { repeated } = taken;
    return { turn: repeated, reply: repeated.reply, memory: null, done: false, repeated: true };
  }
  return taken.play<Played>({
    ...(taking.signal && { signal: taking.signal }),
    play: (said, memory, stop) => {
      if (play) return untilStopped(play(memory, stop, said), stop);
      const events: TraceEvent[] = [];
      // The agent stops too (its model request is aborted) when the run is dropped.
      const reply = agent.reply(said ?? "", memory ?? undefined, {
        trace: (e) => {
          events.push(e);
          forward?.(e);
        },
        signal: stop,
        conversationId: threadId,
        ...(onText && { onText }),
        ...(pause && { pause }),
      });
      return untilStopped(
        reply.then((r) => ({ reply: r.reply, memory: r.memory, delta: r.delta, done: r.done, trace: events })),
        stop,
      );
    },
  });
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
