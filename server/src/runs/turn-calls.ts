/**
 * What a committed turn sent and got back, for `GET /api/threads/:id/turns/:seq/calls`: the turn
 * replayed from its recording (replay-turn.ts), which runs nothing of the agent's that could act
 * (no model, no tool, no hook), only the graph's own code in its sandbox. Replayed in the
 * server's own thread, never on the workers that play the threads' turns; a few at a time, the
 * rest waiting in a bounded queue (past it, 503 with Retry-After); each giving the event loop back
 * between nodes; and kept, up to a number of bytes, since a committed turn never changes: asked
 * again, it is read, not replayed.
 */
import type { Agent } from "@autograms/runtime";
import { replayTurn, type Store, type TurnRecord } from "@autograms/store";
import type { ThreadInfo } from "../own-thread.js";
import { LRUCache } from "lru-cache";
import { HttpError } from "../http/errors.js";
import { madeCalls } from "../traces/made-calls.js";

export interface TurnCallsLimits {
  /** Replays running at once (default 1). */
  concurrent: number;
  /** Replays waiting for one of those (default 32); past them a request is refused with 503 and Retry-After. */
  queue: number;
  /** Bytes of replayed turns' JSON kept, the least recently asked for dropped first (default 16 MiB). */
  keptBytes: number;
  /** Milliseconds one replay may take (default 10,000); past them it stops, and the answer says so in `stopped`. */
  deadlineMs: number;
}

export const DEFAULT_TURN_CALLS: TurnCallsLimits = {
  concurrent: 1,
  queue: 32,
  keptBytes: 16 * 1024 * 1024,
  deadlineMs: 10_000,
};

/** How long a replay runs before it lets the event loop serve other requests. */
const SLICE_MS = 10;

export class TurnCalls {
  /**
   * JSON texts of replayed turns, the least recently asked for dropped first; one larger than the
   * bound alone is not kept (lru-cache's maxEntrySize is its maxSize). Null when it keeps nothing
   * (`keptBytes` 0): lru-cache wants a positive bound.
   */
  private readonly kept: LRUCache<string, string> | null;
  /** Replays running or waiting, shared by every request for the same turn. */
  private readonly pending = new Map<string, Promise<string>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /**
   * A thread's turns, read once for the replays of it running or waiting (reading them parses every
   * turn's trace), and let go when the last of those ends.
   */
  private readonly threadTurns = new Map<string, { users: number; turns?: Promise<TurnRecord[]> }>();

  constructor(
    private readonly store: Store,
    private readonly limits: TurnCallsLimits,
  ) {
    this.kept =
      limits.keptBytes > 0
        ? new LRUCache({ maxSize: limits.keptBytes, sizeCalculation: (text) => Buffer.byteLength(text) })
        : null;
  }

  /** The turn's calls as JSON text, replayed on `agent` (the build the request took). */
  async json(thread: ThreadInfo, seq: number, agent: Agent): Promise<string> {
    // A thread deleted and made again under its id is another thread; another build replays otherwise.
    const key = JSON.stringify([thread.id, thread.createdAt, seq, agent.graphHash]);
    const kept = this.kept?.get(key);
    if (kept !== undefined) return kept;
    let replay = this.pending.get(key);
    if (!replay) {
      const turns = this.turnsOf(thread);
      replay = this.replayed(agent, thread.id, seq, turns.read).finally(() => {
        turns.done();
        this.pending.delete(key);
      });
      this.pending.set(key, replay);
      replay.then((text) => this.kept?.set(key, text)).catch(() => {});
    }
    return replay;
  }

  private turnsOf(thread: ThreadInfo): { read: () => Promise<TurnRecord[]>; done: () => void } {
    const key = JSON.stringify([thread.id, thread.createdAt, thread.version]);
    const h = this.threadTurns.get(key) ?? { users: 0 };
    this.threadTurns.set(key, h);
    h.users++;
    return {
      read: () => (h.turns ??= this.store.turns(thread.id)),
      done: () => {
        if (--h.users === 0) this.threadTurns.delete(key);
      },
    };
  }

  private async replayed(
    agent: Agent,
    threadId: string,
    seq: number,
    turns: () => Promise<TurnRecord[]>,
  ): Promise<string> {
    await this.turn();
    try {
      let since = performance.now();
      const replayed = await replayTurn(
        this.store,
        agent,
        threadId,
        seq,
        {
          deadlineMs: this.limits.deadlineMs,
          // Between nodes, now and then: other requests are served while a long turn replays.
          pause: () => {
            if (performance.now() - since < SLICE_MS) return;
            return new Promise<void>((resolve) =>
              setImmediate(() => {
                since = performance.now();
                resolve();
              }),
            );
          },
        },
        turns,
      );
      // Only the steps that sent or got something: a turn that computes has thousands of others,
      // which its stored trace (GET /api/threads/:id) already shows.
      const { events, ...rest } = replayed;
      return JSON.stringify({ ...rest, steps: events.length, events: events.filter(madeCalls) });
    } finally {
      // The next one waiting takes this place over: `running` counts it already.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Waits for a free replay, or refuses when too many wait. */
  private async turn(): Promise<void> {
    if (this.running < this.limits.concurrent) {
      this.running++;
      return;
    }
    if (this.waiting.length >= this.limits.queue) {
      throw new HttpError(
        503,
        "replays_busy",
        `${this.running + this.waiting.length} turns are being replayed or wait for it: ask again shortly`,
        undefined,
        { retryAfter: 1 },
      );
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
}
