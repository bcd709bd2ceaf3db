/**
 * Runs the agent's turns for the HTTP API and numbers what happens as the run's events: the
 * thread is taken by the store's busy policy (`runTurn`), then the run's events go to the clients
 * of this process at once and to the store in batches, the first with the run's record. A run goes
 * on when the client that asked for it goes away; `close()` stops the runs in progress.
 */
import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import type { Agent, ReplyChunk, TraceEvent } from "@autograms/runtime";
import { runTurn, storedTrace, StoreError, type BusyPolicy, type Lease, type StalePolicy, type Store, type TurnRecord } from "@autograms/store";
import { badRequest, HttpError } from "../http/errors.js";
import type { NumberedRunEvent, RunEvent } from "../run-events.js";
import { ownThread } from "../own-thread.js";
import { LiveRun } from "./live-run.js";
import { replyNode, restOfReply } from "./reply-node.js";

export interface RunManagerOptions {
  policy: BusyPolicy;
  /** A message to a thread whose memory cannot resume on the agent (runTurn's `onStale`). */
  onStale?: StalePolicy;
  /** How long a run's events wait to be written with the next ones (default 100 ms); a run's last events never wait. */
  flushMs?: number;
  /** Who runs, as the store shows it to a refused client (default `pid N on HOST`). */
  owner?: string;
  /** Called before a new turn is started; throws to refuse it (a server shutting down). */
  admit?: () => void;
  /** Told what the runs do (the process's metrics). */
  observer?: RunObserver;
}

/** What a RunManager tells about its runs, as they happen. */
export interface RunObserver {
  /** An event of a run of this process, as it is numbered. */
  runEvent(runId: string, event: RunEvent): void;
  /** This process took a thread for a turn with `lease`. */
  leaseTaken(lease: Lease): void;
  /** A message id that had made its turn was sent again: the turn is replayed, nothing runs. */
  replayed(): void;
}

/** What asking for a run gives: a run of this process (or of another, for a retried message) to follow, or the replay of a turn the message id already made. */
export type Started =
  | { kind: "run"; runId: string }
  | { kind: "replay"; events: NumberedRunEvent[] };

export class RunManager {
  private readonly live = new Map<string, LiveRun>();
  private readonly stopping = new AbortController();
  private readonly flushMs: number;

  /** `agent`: the build served now (it may change between runs: hot reload). */
  constructor(private readonly store: Store, private readonly currentAgent: () => Agent, private readonly options: RunManagerOptions) {
    this.flushMs = options.flushMs ?? 100;
    // Every run in progress listens to it: hundreds at once are expected, not a leak.
    setMaxListeners(0, this.stopping.signal);
  }

  /** The thread's run executing in this process, if any (its record may not be written yet). */
  liveOn(threadId: string): LiveRun | undefined {
    for (const run of this.live.values()) if (run.threadId === threadId && !run.ended) return run;
    return undefined;
  }

  /** Runs executing in this process. */
  get running(): number {
    return this.live.size;
  }

  /** The run, if it is executing in this process. */
  liveRun(runId: string): LiveRun | undefined {
    return this.live.get(runId);
  }

  /**
   * Sends `text` to the thread (`null`: the agent's opening turn, for a new thread only). Settles
   * once the thread is taken (the run has started) or refused (busy, ended: a StoreError or an
   * HttpError to answer with), or at once for a message id that already made its turn.
   */
  async start(threadId: string, text: string | null, messageId?: string): Promise<Started> {
    const info = await ownThread(this.store, this.currentAgent().graph.agent, threadId);
    if (info === null && (await this.store.thread(threadId)) !== null) throw new HttpError(404, "unknown_thread", `no thread '${threadId}'`);
    if (text === null && info !== null && info.version > 0) {
      throw badRequest(`message null asks for the agent's opening turn, which thread ${threadId} has had (it has ${info.version} turns)`, "message");
    }
    if (messageId !== undefined) {
      // The same message sent again: while its run is in progress, that run; once it made its turn, that turn.
      if (info?.running?.messageId === messageId) {
        const run = this.liveOn(threadId) ?? await this.store.latestRun(threadId);
        if (run && run.messageId === messageId) return { kind: "run", runId: run.id };
      }
      const made = await this.store.turnByMessage(threadId, messageId);
      if (made) {
        this.options.observer?.replayed();
        return { kind: "replay", events: replayOf(threadId, made, info!.done && made.seq === info!.version) };
      }
    }
    // After the replay above: the message that ended a thread, sent again, still gets its turn back.
    if (info?.done) throw new HttpError(409, "thread_ended", `thread ${threadId} has ended (it reached 'quit'); fork it at an earlier turn to go on`);
    this.options.admit?.();
    const opening = text !== null && (info === null || info.version === 0);
    try {
      return await new Promise<Started>((resolve, reject) => {
        void this.execute(threadId, text, messageId, opening, resolve, reject);
      });
    } catch (err) {
      // A message waiting for its thread (enqueue) when the server stopped: another process takes it.
      if (this.stopping.signal.aborted) this.options.admit?.();
      throw err instanceof StoreError && err.code === "thread_busy" ? await this.busy(threadId, err) : err;
    }
  }

  /** 409, with the run in progress (its id: a client may follow it instead). */
  private async busy(threadId: string, err: StoreError): Promise<HttpError> {
    const running = (await this.store.thread(threadId))?.running ?? null;
    const run = running ? this.liveOn(threadId) ?? await this.store.latestRun(threadId) : null;
    return new HttpError(409, "thread_busy", err.message, undefined, { running: running && { ...running, runId: run?.id ?? null } });
  }

  private async execute(threadId: string, text: string | null, messageId: string | undefined, opening: boolean,
    started: (s: Started) => void, refused: (err: unknown) => void): Promise<void> {
    let run: LiveRun | null = null;
    // Both turns of the run (an opening, the message's) on the build the run started with.
    const agent = this.currentAgent();
    /** The text sent for each node since its last reset, this turn. */
    let shown = new Map<string, string>();
    const signal = this.stopping.signal;
    const trace = (e: TraceEvent) => {
      const [event] = storedTrace([e]);
      run?.push({ type: "step", event: event! });
    };
    const onText = (chunk: ReplyChunk) => {
      if (chunk.kind === "delta") {
        shown.set(chunk.node, (shown.get(chunk.node) ?? "") + chunk.text);
        run?.push({ type: "text-delta", node: chunk.node, delta: chunk.text });
      } else {
        shown.delete(chunk.node);
        run?.push({ type: "text-reset", node: chunk.node });
      }
    };
    const common = { policy: this.options.policy, ...(this.options.onStale ? { onStale: this.options.onStale } : {}), trace, onText, signal, ...(this.options.owner ? { owner: this.options.owner } : {}) };
    const observer = this.options.observer;
    const begin = (lease: Lease, turn: number, user: string | null, withOpening: boolean) => {
      const id = randomUUID();
      observer?.leaseTaken(lease);
      run = new LiveRun(id, threadId, { lease, user }, this.store, this.flushMs, observer && ((e) => observer.runEvent(id, e)));
      this.live.set(id, run);
      run.push({ type: "run-start", threadId, runId: id, messageId: messageId ?? null, user, turn, ...(withOpening ? { opening: true } : {}) });
      started({ kind: "run", runId: id });
    };
    // A reply that did not stream (chat_exact, a model that answers whole) is sent once known, so
    // the deltas for its node always add up to it.
    const sayReply = (reply: string | null, events: TraceEvent[]) => {
      const node = replyNode(events);
      const sent = shown.get(node) ?? "";
      shown = new Map();
      for (const e of restOfReply(node, sent, reply)) run!.push(e);
    };
    try {
      let seen: TraceEvent[] = [];
      const collect = (e: TraceEvent) => {
        seen.push(e);
        trace(e);
      };
      // The thread was new when the message came, but another request (another process, as
      // likely as this one) may have made its opening while this one waited for the thread: the
      // opening is made only on a thread that has no turn once taken.
      const first = opening ? await runTurn(this.store, agent, threadId, null, {
        ...common, trace: collect,
        onStart: (lease) => {
          if (lease.version > 0) throw new OpeningMade();
          return begin(lease, lease.version + 2, text, true);
        },
      }).catch((err: unknown) => {
        if (err instanceof OpeningMade) return null;
        throw err;
      }) : null;
      if (first) {
        sayReply(first.reply, seen);
        seen = [];
        if (first.done) {
          run!.push({ type: "run-finish", turn: first.turn.seq, reply: first.reply, done: true });
          return;
        }
      }
      const outcome = await runTurn(this.store, agent, threadId, text, {
        ...common, trace: collect, ...(messageId === undefined ? {} : { messageId }),
        onStart: (lease) => {
          // A request for the opening alone (null) that another one answered first.
          if (text === null && lease.version > 0) throw badRequest(`message null asks for the agent's opening turn, which thread ${threadId} has had`, "message");
          if (!run) return begin(lease, lease.version + 1, text, false);
          observer?.leaseTaken(lease);
          run.continueWith(lease);
        },
      });
      if (outcome.repeated && !run) {
        // Another request with the same message id made the turn while this one waited.
        observer?.replayed();
        started({ kind: "replay", events: replayOf(threadId, outcome.turn) });
        return;
      }
      sayReply(outcome.reply, seen);
      run!.push({ type: "run-finish", turn: outcome.turn.seq, reply: outcome.reply, done: outcome.done });
    } catch (err) {
      if (!run) return refused(err);
      const stopped = signal.aborted;
      const code = stopped ? "stopped" : err instanceof StoreError ? err.code : (err as { code?: unknown }).code;
      (run as LiveRun).push({
        type: "run-error", code: typeof code === "string" ? code : "internal",
        message: stopped ? "the server stopped before the run finished; nothing was committed" : err instanceof Error ? err.message : String(err),
      });
    } finally {
      if (run) {
        const r: LiveRun = run;
        await r.stored;
        this.live.delete(r.id);
      }
    }
  }

  /** Resolves once the runs in progress now have ended and their events are stored. */
  async settled(): Promise<void> {
    await Promise.all([...this.live.values()].map((r) => r.stored));
  }

  /** Stops the runs in progress (each ends with a `stopped` error, its thread released) and waits until their events are stored. */
  async close(): Promise<void> {
    this.stopping.abort(new Error("the server is stopping"));
    await Promise.all([...this.live.values()].map((r) => r.stored));
  }
}

/** Thrown to give back a thread whose opening another request made meanwhile. */
class OpeningMade extends Error {}

/** The events a committed turn stands for, for a message id sent again after its run (or from before runs were recorded). */
export function replayOf(threadId: string, turn: TurnRecord, done = false): NumberedRunEvent[] {
  const events: RunEvent[] = [
    { type: "run-start", threadId, runId: `turn-${turn.seq}`, messageId: turn.messageId, user: turn.user, turn: turn.seq },
    ...turn.trace.map((event): RunEvent => ({ type: "step", event })),
  ];
  if (turn.reply !== null) {
    events.push({ type: "text-delta", node: replyNode(turn.trace), delta: turn.reply });
  }
  events.push(turn.status === "interrupted"
    ? { type: "run-error", code: "interrupted", message: "a newer message interrupted this one; it has no reply" }
    : { type: "run-finish", turn: turn.seq, reply: turn.reply, done });
  return events.map((event, i) => ({ seq: i + 1, event }));
}
