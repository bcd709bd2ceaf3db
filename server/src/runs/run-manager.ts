/**
 * Runs the agent's turns for the HTTP API and numbers what happens as the run's events: the
 * thread is taken by the store's busy policy (`runTurn`), then the run's events go to the clients
 * of this process at once and to the store in batches, the first with the run's record. A run goes
 * on when the client that asked for it goes away; `close()` stops the runs in progress.
 */
import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { messageConflict, StoreError, takeTurn, type Store, type TurnRecord } from "@autograms/store";
import type { BusyPolicy, StalePolicy } from "../app-options.js";
import { badRequest, clientMessage, HttpError } from "../http/errors.js";
import { isOver, type NumberedRunEvent, type RunEvent } from "./run-events.js";
import { notThisAgents, ownThread } from "../own-thread.js";
import { LiveRun } from "./live-run.js";
import { replyNode } from "./reply-text.js";
import type { TurnPlayer } from "../workers/turn-player.js";
import type { ServedAgents } from "../served-agents.js";
import type { ServedBuild } from "../served-build.js";
import { BY_CLIENT, ServedRun, type Taken } from "./served-run.js";
import { settingsFrom } from "../settings/stored-settings.js";

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
  /** Told of the error each failed run ended with (the store's damage is kept: /readyz says it). */
  onError?: (err: unknown) => void;
  /** Told of each run that committed its turns, once its events are stored (titles/). */
  onServed?: (threadId: string) => void;
}

/** What a RunManager tells about its runs, as they happen. */
export interface RunObserver {
  /** An event of a run of this process, as it is numbered. */
  runEvent(runId: string, event: RunEvent): void;
  /** This process took a thread for a turn with `lease`. */
  leaseTaken(lease: Taken["lease"]): void;
  /** A message id that had made its turn was sent again: the turn is replayed, nothing runs. */
  replayed(): void;
}

/** What a request may ask of its run beyond the message. */
export interface StartOptions {
  /** The run's id (default: a new UUID; a client's own must name no other run). */
  runId?: string;
  /** The busy policy for this message (default: the manager's). */
  policy?: BusyPolicy;
  /** Answers the thread's last turn, this one, again (regenerate): `text` and `messageId` are its. */
  replaces?: number;
  /** The build the request took as it started (default: the default agent's served now). */
  build?: ServedBuild;
}

/** What a stop kept: the stopped run's message, as an interrupted turn (no reply, the memory as it was). */
export interface Stopped {
  /** The run stopped, if it was recorded (null: it had not written its record yet in another process). */
  runId: string | null;
  turn: TurnRecord;
}

/** What asking for a run gives: a run of this process (or of another, for a retried message) to follow, or the replay of a turn the message id already made. */
export type Started = { kind: "run"; runId: string } | { kind: "replay"; events: NumberedRunEvent[] };

/** `message: null` on a thread that has had its opening (`turns`: how many it has, when read first). */
const openingHad = (threadId: string, turns?: number) =>
  badRequest(
    `message null asks for the agent's opening turn, which thread ${threadId} has had${turns === undefined ? "" : ` (it has ${turns} turns)`}`,
    "message",
  );

const threadEnded = (threadId: string) =>
  new HttpError(
    409,
    "thread_ended",
    `thread ${threadId} has ended (it reached 'quit'); fork it at an earlier turn to go on`,
  );

/**
 * Refuses, and gives back, a thread taken for a message it cannot answer: one that ended (the
 * message that ended it, sent again, was replayed before this), or an opening asked for alone
 * (null) that another request made first.
 */
async function refuseEnded(
  taken: Taken,
  threadId: string,
  text: string | null,
  replaces: number | undefined,
): Promise<void> {
  if (replaces !== undefined) return;
  if (taken.memory?.done) {
    await taken.release();
    throw threadEnded(threadId);
  }
  if (text === null && taken.lease.version > 0) {
    await taken.release();
    throw openingHad(threadId);
  }
}

export class RunManager {
  private readonly live = new Map<string, ServedRun>();
  private readonly stopping = new AbortController();

  /** `agents`: the builds served (they may change between runs: hot reload), whose players a run holds while it plays. */
  constructor(
    private readonly store: Store,
    private readonly agents: ServedAgents,
    private readonly options: RunManagerOptions,
  ) {
    // Every run in progress listens to it: hundreds at once are expected, not a leak.
    setMaxListeners(0, this.stopping.signal);
  }

  /** The thread's run executing in this process, if any (its record may not be written yet). */
  liveOn(threadId: string): LiveRun | undefined {
    for (const { run } of this.live.values()) if (run.threadId === threadId && !isOver(run)) return run;
    return undefined;
  }

  /** Why the build's agent has no such thread: none, or another agent's (named when served here). */
  private async notOurs(threadId: string, build: ServedBuild): Promise<HttpError> {
    const owner = (await this.store.thread(threadId))?.agent ?? null;
    return notThisAgents(threadId, build.name, owner, this.agents.names);
  }

  get running(): number {
    return this.live.size;
  }

  liveRun(runId: string): LiveRun | undefined {
    return this.live.get(runId)?.run;
  }

  /**
   * Sends `text` to the thread (`null`: the agent's opening turn, for a new thread only). Settles
   * once the thread is taken (the run has started) or refused (busy, ended: a StoreError or an
   * HttpError to answer with), or at once for a message id that already made its turn.
   */
  async start(threadId: string, text: string | null, messageId?: string, given: StartOptions = {}): Promise<Started> {
    const options = { ...given, build: given.build ?? this.agents.current() };
    const { runId } = options;
    // A user's message, the common path: what it asks of the thread (the served agent's, not
    // ended, the message new or its turn made, its opening had) is checked as the thread is taken,
    // in one transaction (execute). An opening, or a reply asked for again, reads the thread first.
    const message = text !== null && options.replaces === undefined;
    if (!message) {
      const answered = await this.checkFirst(threadId, text, messageId, options);
      if (answered) return answered;
      this.options.admit?.();
    } else {
      try {
        this.options.admit?.();
      } catch (err) {
        // A server that takes no new turn (draining) still answers a message it is answering or
        // has answered: the same id sent again follows its run, or gets its turn back.
        const answered =
          messageId === undefined ? undefined : await this.checkFirst(threadId, text, messageId, options);
        if (answered) return answered;
        throw err;
      }
    }
    if (runId !== undefined && (this.live.has(runId) || (await this.store.run(runId)) !== null)) {
      throw badRequest(`runId: '${runId}' names a run already; give each run an id of its own`, "runId");
    }
    try {
      return await this.execute(threadId, text, messageId, message, options);
    } catch (err) {
      // A message waiting for its thread (enqueue) when the server stopped: another process takes it.
      if (this.stopping.signal.aborted) this.options.admit?.();
      if (!(err instanceof StoreError)) throw err;
      // The same message sent twice at once: the second request follows the first one's run, or
      // gets the turn it made before it could be followed; none (the run failed): 409 busy.
      if (err.code === "same_message") {
        const followed =
          (await this.runOfMessage(threadId, messageId!, text)) ?? (await this.replayMade(threadId, messageId!, text));
        if (followed) return followed;
      }
      // Another agent's thread, in a store several share: to this server's clients it does not exist.
      if (err.code === "unknown_thread") throw await this.notOurs(threadId, options.build);
      throw err.code === "thread_busy" || err.code === "same_message" ? await this.busy(threadId, err) : err;
    }
  }

  /**
   * The checks of an opening or a regenerate, made on the thread as read before it is taken: a
   * refusal (thrown), the answer of a message id that made its turn already, or undefined: go on.
   */
  private async checkFirst(
    threadId: string,
    text: string | null,
    messageId: string | undefined,
    options: StartOptions & { build: ServedBuild },
  ): Promise<Started | undefined> {
    const info = await ownThread(this.store, options.build.name, threadId);
    if (info === null && (await this.store.thread(threadId)) !== null)
      throw await this.notOurs(threadId, options.build);
    if (text === null && info !== null && info.version > 0 && options.replaces === undefined)
      throw openingHad(threadId, info.version);
    if (messageId !== undefined && options.replaces === undefined) {
      // The same message sent again: while its run is in progress, that run; once it made its turn, that turn.
      if (info?.running?.messageId === messageId) {
        const run = await this.runOfMessage(threadId, messageId, text);
        if (run) return run;
      }
      const replay = await this.replayMade(threadId, messageId, text, info);
      if (replay) return replay;
    }
    // After the replay above: the message that ended a thread, sent again, still gets its turn back.
    if (info?.done && options.replaces === undefined) throw threadEnded(threadId);
    return undefined;
  }

  /**
   * The run in progress for this message id, in this process or another (a run is recorded as it
   * takes its thread); null when there is none.
   */
  private async runOfMessage(threadId: string, messageId: string, text: string | null): Promise<Started | null> {
    const live = this.liveOn(threadId);
    const stored = live ? null : await this.store.latestRun(threadId);
    const run = live ?? (stored && !isOver(stored) ? stored : null);
    if (run?.messageId !== messageId) return null;
    if (run.user !== text) throw messageConflict(threadId, messageId);
    return { kind: "run", runId: run.id };
  }

  /**
   * The turn the message id made, replayed (`info`: the thread as read with it, else read now);
   * undefined when it made none.
   */
  private async replayMade(
    threadId: string,
    messageId: string,
    text: string | null,
    info?: { done: boolean; version: number } | null,
  ): Promise<Started | undefined> {
    const made = await this.store.turnByMessage(threadId, messageId);
    if (!made) return undefined;
    if (made.user !== text) throw messageConflict(threadId, messageId);
    info ??= await this.store.thread(threadId);
    return this.replay(threadId, made, !!info?.done && made.seq === info.version);
  }

  private replay(threadId: string, turn: TurnRecord, done: boolean): Started {
    this.options.observer?.replayed();
    return { kind: "replay", events: replayOf(threadId, turn, done) };
  }

  /** 409, with the run in progress (its id: a client may follow it instead). */
  private async busy(threadId: string, err: StoreError): Promise<HttpError> {
    const running = (await this.store.thread(threadId))?.running ?? null;
    const run = running ? (this.liveOn(threadId) ?? (await this.store.latestRun(threadId))) : null;
    return new HttpError(409, "thread_busy", clientMessage(err.message, this.store.where), undefined, {
      running: running && { ...running, runId: run?.id ?? null },
    });
  }

  /**
   * Takes the thread and, once it is taken, starts the run on it and answers: the run plays on.
   * A refusal (busy, ended, a conflict) is thrown; a message id that made its turn is replayed.
   */
  private async execute(
    threadId: string,
    text: string | null,
    messageId: string | undefined,
    /** A user's message: on a thread that has had no turn (known once taken) the agent's opening comes first. */
    message: boolean,
    { runId, policy, replaces, build }: StartOptions & { build: ServedBuild },
  ): Promise<Started> {
    // Both turns of the run (an opening, the message's) on the build the request started with.
    const { agent } = build;
    const player = this.agents.hold(build);
    const id = runId ?? randomUUID();
    let taken: Awaited<ReturnType<typeof takeTurn>>;
    let modelSettings: ReturnType<typeof settingsFrom>;
    try {
      taken = await takeTurn(this.store, agent, threadId, text, {
        // The run is recorded as it takes the thread: whoever sees the thread taken finds its run.
        runId: id,
        policy: policy ?? this.options.policy,
        signal: this.stopping.signal,
        agent: build.name,
        // The same message sent again while its run is in progress follows that run (start).
        sameMessage: "refuse",
        ...(this.options.owner ? { owner: this.options.owner } : {}),
        // Memory that cannot resume on the build is refused (422 stale_memory) or restarted before the run starts.
        ...(this.options.onStale && { onStale: this.options.onStale }),
        ...(messageId !== undefined && { messageId }),
        ...(replaces !== undefined && { replaces }),
        openingFirst: message,
      });
      // Another request with the same message id made the turn (while this one waited).
      if ("repeated" in taken) return this.replay(threadId, taken.repeated, taken.endedThere);
      if (!taken.openingFirst) await refuseEnded(taken, threadId, text, replaces);
      // The thread's model settings, read with its memory as it was taken: settings damaged in
      // the store refuse the run and give the thread back.
      try {
        modelSettings = settingsFrom(threadId, taken.settings);
      } catch (err) {
        await taken.release();
        throw err;
      }
    } catch (err) {
      this.agents.letGo(player);
      throw err;
    }
    const { observer, flushMs = 100 } = this.options;
    observer?.leaseTaken(taken.lease);
    const served = new ServedRun(
      new LiveRun(id, threadId, taken.lease, this.store, flushMs, observer && ((e) => observer.runEvent(id, e))),
      { agent, player, stopping: this.stopping.signal, where: this.store.where, modelSettings },
    );
    this.live.set(id, served);
    served.begin(messageId ?? null, text, taken);
    void this.serve(served, taken, player);
    return { kind: "run", runId: id };
  }

  /** Plays the run to its end (its events say how it ended), then lets it go. */
  private async serve(served: ServedRun, taken: Taken, player: TurnPlayer): Promise<void> {
    let played = false;
    try {
      await taken.play(served);
      played = true;
    } catch (err) {
      this.options.onError?.(err);
      served.failed(err);
    } finally {
      await served.run.stored;
      this.live.delete(served.run.id);
      this.agents.letGo(player);
    }
    if (played) this.options.onServed?.(served.run.threadId);
  }

  /**
   * Stops a run of this process: its turn is aborted where it is played (in its worker, at its
   * next step), nothing of it is committed, its thread is released, and it ends with `run-error`
   * `stopped`. False when no run of that id is in progress here.
   */
  stop(runId: string): boolean {
    return this.abort(runId, new Error("stopped"));
  }

  /** Aborts a run of this process where it is played; false when it is not in progress here. */
  private abort(runId: string, reason: Error): boolean {
    const served = this.live.get(runId);
    if (!served || isOver(served.run)) return false;
    served.stopThis.abort(reason);
    return true;
  }

  /**
   * Stops the thread's run in progress, in this process or another: the thread is taken over
   * (the store's `interrupt`: the run's message is kept as an interrupted turn, no reply, the memory
   * unchanged, and the run's commit is refused) and released at once, so the next message is
   * answered at once. A run of this process is aborted now (its model request with it) and its end
   * stored before this returns; one of another process finds its lease lost at its next renewal.
   * Null when nothing was running.
   */
  async stopThread(threadId: string, build = this.agents.current()): Promise<Stopped | null> {
    const info = await ownThread(this.store, build.name, threadId);
    if (!info) throw await this.notOurs(threadId, build);
    if (!info.running) return null;
    const recorded = this.liveOn(threadId) ?? (await this.store.latestRun(threadId));
    const lease = await this.store.acquire(threadId, {
      policy: "interrupt",
      create: false,
      ...(this.options.owner ? { owner: this.options.owner } : {}),
    });
    const live = this.liveOn(threadId);
    if (live) this.abort(live.id, BY_CLIENT);
    await this.store.release(lease);
    // The run ended on its own in the meantime: nothing was interrupted.
    if (lease.version === info.version) return null;
    await live?.stored;
    const turn = (await this.store.turns(threadId)).find((t) => t.seq === lease.version)!;
    return { runId: recorded && recorded.messageId === turn.messageId ? recorded.id : null, turn };
  }

  /** Resolves once the runs in progress now have ended and their events are stored. */
  async settled(): Promise<void> {
    await Promise.all([...this.live.values()].map((s) => s.run.stored));
  }

  /** Stops the runs in progress (each ends with a `stopped` error, its thread released), waits until their events are stored, and closes the players. */
  async close(): Promise<void> {
    this.stopping.abort(new Error("the server is stopping"));
    await this.settled();
    await this.agents.close();
  }
}

/** The events a committed turn stands for, for a message id sent again after its run (or from before runs were recorded). */
export function replayOf(threadId: string, turn: TurnRecord, done = false): NumberedRunEvent[] {
  const events: RunEvent[] = [
    {
      type: "run-start",
      threadId,
      runId: `turn-${turn.seq}`,
      messageId: turn.messageId,
      user: turn.user,
      turn: turn.seq,
    },
    ...turn.trace.map((event): RunEvent => ({ type: "step", event })),
  ];
  if (turn.reply !== null) {
    events.push({ type: "text-delta", node: replyNode(turn.trace), delta: turn.reply });
  }
  events.push(
    turn.status === "interrupted"
      ? {
          type: "run-error",
          code: "interrupted",
          message: "this message's run was stopped (by a newer message or by its client); it has no reply",
        }
      : { type: "run-finish", turn: turn.seq, reply: turn.reply, done },
  );
  return events.map((event, i) => ({ seq: i + 1, event }));
}
