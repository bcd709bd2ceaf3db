/**
 * Worker threads that play the server's turns, so the HTTP event loop only moves bytes: whatever
 * a turn computes, the server keeps answering. Each thread makes its own agent (a worker script
 * that calls `serveTurns`) and plays several turns at once. A thread's turns go to the worker
 * that played its last one while it is warm (what a worker keeps of a thread stays useful), unless
 * that worker is the busier by far; else to the least busy. A worker that dies (its heap limit, a tool that exits the thread) or stops
 * answering (one step that never ends) fails its own turns only, and is replaced; a thread whose
 * turns keep ending workers is played apart, then refused (crash-strikes.ts). A replacement that
 * cannot be made (its modules gone) leaves the pool serving on the workers it has, trying again
 * with backoff and saying why it is not ready (`unready`). Given the agent made in its own thread
 * too (`inline`), the pool plays turns there until they prove CPU-heavy (inline-turns.ts), and
 * starts its workers only once a turn needs one.
 */
import { shownValue } from "@autograms/runtime";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Agent, Tool } from "@autograms/runtime";
import { drainSpanQueue, relaySpans, turnTrace, type RelayTrace } from "@autograms/runtime/telemetry";
import {
  readProgress,
  settle,
  stoppedBy,
  turnError,
  type FromWorker,
  type PlayedResult,
  type ToWorker,
  type Waiting,
  type WorkerStart,
} from "./protocol.js";
import { answerCall, sharedToolInfo } from "./shared-tools.js";
import { budgetsOf, TurnBudgetError, wallTimeout, type TurnBudgets } from "./turn-budget.js";
import { CrashStrikes, quarantineOf, type QuarantineOptions } from "./crash-strikes.js";
import type { PlayRequest, ToolCallRequest, TurnPlayer } from "./turn-player.js";
import { InlineTurns } from "./inline-turns.js";
import { stepFromText } from "../runs/step-text.js";

export interface WorkerOptions {
  /** A module that calls `serveTurns(makeAgent)` (from `@autograms/server/worker`). */
  script: string | URL;
  /** Given to `makeAgent` in each worker (structured-cloned: plain data). */
  data?: unknown;
  /** Worker threads (default: the machine's cores). */
  size?: number;
  /** Per-turn budgets: milliseconds of synchronous work, MiB of trace (default 10,000 ms, 256 MiB). */
  budgets?: Partial<TurnBudgets>;
  /** A worker's V8 heap limit, in MiB, the backstop behind the memory budget (default 2 x the memory budget + 256). */
  heapLimitMb?: number;
  /** How long a thread's turns keep going to the worker of its last one (default 10 minutes). */
  warmMs?: number;
  /**
   * MiB of threads' memory each worker keeps from their last turns, about (default 64), so that a
   * thread's next turn there is sent no copy of it: the least recently used go first.
   */
  keptMb?: number;
  /** When a thread whose turns keep ending their worker is refused, and for how long (default: after 3 crashes, for 10 minutes). */
  quarantine?: Partial<QuarantineOptions>;
  /**
   * Tools held in this thread that the workers' turns call through it, given to the worker
   * script's `makeAgent` as `host.tools` (with their definitions, for the model): what must exist
   * once per process, such as MCP tools (one connection per server, not one per worker). Their
   * values cross threads by structured cloning.
   */
  tools?: Record<string, Tool>;
  /** Called once the pool has closed and its workers have ended: what holds `tools` may let them go (an MCP server stopped). */
  onClose?: () => Promise<void>;
  /**
   * The agent made in this thread too, to play the turns here until a thread's turn proves
   * CPU-heavy (inline-turns.ts): only for an agent that runs no code of its own beyond its graph
   * and its model (no tool, action or hook modules: one could exit or block this thread). The
   * workers start only when a turn first needs one (or `make` is called): until then the pool
   * costs neither their memory nor their start, and one that cannot start is tried again as a
   * replacement is (`unready` says why; a turn waiting for it fails with `no_worker`).
   */
  inline?: Agent;
}

export class WorkerError extends Error {
  constructor(
    message: string,
    readonly code: "worker_lost" | "no_worker" = "worker_lost",
  ) {
    super(message);
  }
}

interface Job {
  request: PlayRequest;
  /** When it was sent to its worker, or when that worker was ready, if later. */
  since: number;
  resolve(result: PlayedResult): void;
  reject(err: Error): void;
  /** Traced in this thread, the turn's spans come back from the worker and are exported by this thread's SDK. */
  trace: RelayTrace | undefined;
}

interface Slot {
  worker: Worker;
  /**
   * `first`: started with the pool (one that cannot make its agent means nothing can be served);
   * `replacement`: started in place of one that ended, serving once ready; `own`: plays the turns
   * of one suspect thread (crash-strikes.ts), and ends with them.
   */
  role: "first" | "replacement" | "own";
  /** Takes no more turns: ends once those it has have. */
  retiring: boolean;
  /** It made its agent: a turn it ended was played (one that never started fails its turns without charging their threads). */
  made: boolean;
  jobs: Map<number, Job>;
  /** Resolves with what the worker's factory told of its agent (`MadeAgent.about`). */
  ready: Promise<unknown>;
  /** When it last answered (a ping, a turn's progress). */
  heardAt: number;
  /** Why the pool ended it, if it did. */
  endedFor: string | null;
  /** The calls of shared tools (WorkerOptions.tools) this thread runs for it, by id. */
  calls: Map<number, AbortController>;
  /** The calls of the agent's tools it runs outside any turn (`callTool`), by id. */
  toolCalls: Map<number, Waiting>;
  /** The builds it is making (`make`), by number. */
  making: Map<number, Waiting>;
  /** A replacement for a worker that ended by itself (not one the pool retired): until it serves, the pool is `unready`. */
  afterCrash?: boolean;
}

const PING_MS = 500;
const DEFAULT_KEPT_MB = 64;
/** A turn still playing after this long is computing (or waiting on a slow model): not one to share a worker with by choice. */
const LONG_TURN_MS = 250;
/** A worker silent this long beyond the time budget is running something no step check reaches. */
const SILENCE_GRACE_MS = 2000;
/** A turn past its wall-clock bound by this much was not stopped by its worker's own timer: the pool ends it. */
const STOP_GRACE_MS = 2000;
/** The wait before trying again to start a worker that could not be started, doubled each time up to the most. */
const RESPAWN_FIRST_MS = 1000;
const RESPAWN_MOST_MS = 60_000;
/** Workers of their own for suspect threads at once, at least (crash-strikes.ts). */
const MAX_OWN_WORKERS = 8;
/** Why the pool ended a worker that had nothing left to play (retired, or a suspect thread's own). */
const RETIRED = "retired";

export class TurnPool implements TurnPlayer {
  /** The workers turns are sent to. */
  private readonly slots: Slot[] = [];
  /** Every worker running (those above, those starting, retiring, or playing one thread's turns). */
  private readonly all = new Set<Slot>();
  /** Replacements starting: turns go to them only when no worker serves (they wait there until it can play them). */
  private readonly starting = new Set<Slot>();
  /** The worker playing each suspect thread's turns. */
  private readonly own = new Map<string, Slot>();
  private readonly strikes: CrashStrikes;
  /** The worker threads it plays on (its size: those serving now may be fewer, `unready`). */
  readonly threads: number;
  /** Why the last replacement could not be started, until one is. */
  private replaceFailure: string | undefined;
  private respawnMs = RESPAWN_FIRST_MS;
  private respawnTimer: NodeJS.Timeout | undefined;
  /** The failures already logged: each kind once, until a replacement starts. */
  private readonly logged = new Set<string>();
  /** Each thread's warm worker, and the checksum of the memory that worker holds from its last turn. */
  private readonly warm = new Map<string, { slot: Slot; until: number; kept?: string }>();
  private readonly budgets: TurnBudgets;
  private readonly heapLimitMb: number;
  private readonly warmMs: number;
  private readonly script: string;
  private readonly workerData: WorkerStart;
  private watchdog: NodeJS.Timeout | undefined;
  /** Its workers were started (at once, unless it has `inline`). */
  private started = false;
  private nextId = 1;
  private closed = false;
  private closing: Promise<void> | undefined;
  /** Worker threads started and not yet exited (a replaced or terminated one counts until it is gone). */
  private alive = 0;
  /** Rejects when a worker cannot make its agent: nothing can be served. */
  private unusable: Error | null = null;
  /** The builds made after the workers started (`make`) and not dropped, with their data: a worker that replaces one makes them too. */
  private readonly builds = new Map<number, unknown>();
  private nextBuild = 1;
  /** The turns played in this thread until they prove CPU-heavy (WorkerOptions.inline). */
  private readonly inline: InlineTurns | undefined;

  constructor(private readonly options: WorkerOptions) {
    this.budgets = budgetsOf(options.budgets, "workers.budgets");
    const size = options.size ?? availableParallelism();
    if (!(Number.isInteger(size) && size >= 1))
      throw new RangeError(`workers.size takes a whole number of threads, at least 1, not ${shownValue(size)}`);
    this.threads = size;
    this.strikes = new CrashStrikes(quarantineOf(options.quarantine, "workers.quarantine"));
    this.heapLimitMb = options.heapLimitMb ?? 2 * this.budgets.memoryMb + 256;
    this.warmMs = options.warmMs ?? 10 * 60_000;
    const keptMb = options.keptMb ?? DEFAULT_KEPT_MB;
    if (!(typeof keptMb === "number" && keptMb >= 0))
      throw new RangeError(`workers.keptMb takes a number of MiB, at least 0, not ${shownValue(keptMb)}`);
    this.script = options.script instanceof URL ? fileURLToPath(options.script) : options.script;
    this.workerData = { data: options.data, budgets: this.budgets, keptMb, tools: sharedToolInfo(options.tools ?? {}) };
    this.inline = options.inline && new InlineTurns(options.inline, this.budgets, this.warmMs, () => this.start(true));
    if (!this.inline) this.start(false);
  }

  /** Worker threads of this pool still running: 0 once it is closed and they have exited. */
  get liveThreads(): number {
    return this.alive;
  }

  /**
   * A worker the pool retired (it may keep what a turn took) leaves it ready: the others, or its
   * replacement once started, take the turns meanwhile, unless that replacement fails.
   */
  unready(): string | undefined {
    if (!this.started || this.closed || this.unusable || this.slots.length >= this.threads) return undefined;
    const serving = `${this.slots.length} of ${this.threads} worker threads serve`;
    if (this.replaceFailure !== undefined)
      return `${serving}; a new one could not be started (${this.replaceFailure}), trying again`;
    for (const slot of this.starting) if (slot.afterCrash) return `${serving}; a new one is starting`;
    return undefined;
  }

  /**
   * Resolves once every worker has made its agent, with what the first one's factory told of it
   * (`MadeAgent.about`; undefined for a factory that returns the agent alone); rejects with why
   * one could not. With `inline`, at once while no turn has needed a worker.
   */
  async ready(): Promise<unknown> {
    // A first worker that ended before it was ready is waited for in its replacement.
    const [about] = await Promise.all([...this.slots, ...this.starting].map((s) => s.ready));
    return about;
  }

  /**
   * Makes the agent again in every worker, from `data` given to the script's factory as at start
   * (hot reload of an edit that leaves the modules the workers loaded as they were): resolves with
   * the build's number, which a turn names to be played on it (`PlayRequest.build`), and what the
   * first worker's factory told of it. The agents made before stay until dropped (`drop`).
   */
  async make(data: unknown): Promise<{ build: number; about: unknown }> {
    if (this.unusable) throw this.unusable;
    if (this.closed) throw new WorkerError("the turn pool is closed");
    this.start(false);
    const build = this.nextBuild++;
    this.builds.set(build, data);
    try {
      // Workers not serving yet (starting, a thread's own) make it too, unwaited for.
      for (const slot of this.all) this.post(slot, { type: "make", build, data });
      const [about] = await Promise.all(
        this.slots.map((slot) => new Promise((resolve, reject) => slot.making.set(build, { resolve, reject }))),
      );
      return { build, about };
    } catch (err) {
      this.drop(build);
      throw err;
    }
  }

  /** No turn will name this build again (0: the agent the workers made as they started): its agent goes. */
  drop(build: number): void {
    this.builds.delete(build);
    for (const slot of this.all) this.post(slot, { type: "drop", build });
  }

  play(request: PlayRequest): Promise<PlayedResult> {
    if (this.unusable) return Promise.reject(this.unusable);
    if (this.closed) return Promise.reject(new WorkerError("the turn pool is closed"));
    if (this.inline?.takes(request)) return this.inline.play(request);
    this.start(true);
    const refused = this.strikes.refusal(request.threadId) ?? this.noWorker();
    if (refused) return Promise.reject(refused);
    const slot = this.choose(request.threadId);
    const id = this.nextId++;
    const played = new Promise<PlayedResult>((resolve, reject) => {
      const job: Job = { request, since: Date.now(), resolve, reject, trace: turnTrace() };
      slot.jobs.set(id, job);
      if (slot.jobs.size === 1) slot.heardAt = Date.now();
      // The worker holds the memory of the thread's last turn it played: when that is the memory
      // this turn starts from, only its checksum is sent (no copy, and the worker need not check it).
      const kept = this.warm.get(request.threadId)?.kept;
      this.send(slot, id, job, kept !== undefined && request.memory?.checksum === kept ? kept : undefined);
    });
    // The job stays counted until the worker answers, so a worker that never does is still watched.
    return stoppedBy(request.signal, played, (reason) => this.post(slot, { type: "stop", id, reason: String(reason) }));
  }

  /**
   * Calls one of the agent's tools outside any turn (the tool playground) where its turns are
   * played: in this thread's agent when it plays them here (`inline`: it has no module of its own),
   * else in a worker, where the agent's modules are loaded. A tool that loops or ends its thread
   * takes that worker, never this thread: the watchdog ends a worker silent in a call as in a turn,
   * and a worker that ends fails the calls it had. A call whose signal is aborted (the route's time
   * limit) fails at once; its worker is told to stop it, and if the tool has not ended
   * STOP_GRACE_MS later, the worker (which may keep running it) is replaced.
   */
  callTool(request: ToolCallRequest): Promise<unknown> {
    if (this.unusable) return Promise.reject(this.unusable);
    if (this.closed) return Promise.reject(new WorkerError("the turn pool is closed"));
    if (this.options.inline && request.build === undefined)
      return this.options.inline.callTool(request.name, request.args, request.signal);
    // A call for another build of an inline pool is the first thing to need a worker.
    this.start(true);
    const refused = this.noWorker();
    if (refused) return Promise.reject(refused);
    const slot = leastBusy(this.slots.length > 0 ? this.slots : [...this.starting]);
    // An idle worker is not pinged: its silence counts from now.
    if (slot.jobs.size === 0 && slot.toolCalls.size === 0) slot.heardAt = Date.now();
    const id = this.nextId++;
    const answered = new Promise((resolve, reject) => slot.toolCalls.set(id, { resolve, reject }));
    const { name, args, build } = request;
    this.post(slot, { type: "tool", id, name, args, ...(build !== undefined && { build }) });
    return stoppedBy(request.signal, answered, (reason) => {
      this.post(slot, { type: "stop-tool", id, reason: reason instanceof Error ? reason.message : String(reason) });
      const giveUp = setTimeout(() => {
        if (slot.toolCalls.delete(id)) this.retire(slot);
      }, STOP_GRACE_MS);
      giveUp.unref();
    });
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      clearInterval(this.watchdog);
      clearTimeout(this.respawnTimer);
      await Promise.all([...this.all].map((s) => this.end(s, "the server is stopping")));
      // The spans its workers sent and still queued are made now, for the SDK's flush at exit.
      drainSpanQueue();
      await this.options.onClose?.();
    })();
    return this.closing;
  }

  /**
   * Starts the workers, once: as the pool's first (one that cannot make its agent means nothing
   * can be served, `ready` rejects), or `lazily`, when a turn of an inline pool first needs one
   * while the pool serves already: then each is started as a replacement is, tried again with
   * backoff while it cannot be, the turns sent to it waiting until it serves (bounded by the
   * watchdog: a worker silent past the time budget is ended, its turns failed).
   */
  private start(lazily: boolean): void {
    if (this.started || this.closed) return;
    this.started = true;
    for (let i = 0; i < this.threads; i++) {
      if (lazily) this.replace(false, false);
      else this.slots.push(this.spawn("first"));
    }
    this.watchdog = setInterval(() => this.watch(), PING_MS);
    this.watchdog.unref();
  }

  /** The error a turn fails with when no worker can play it (every replacement failed to start). */
  private noWorker(): WorkerError | undefined {
    if (this.slots.length > 0 || this.starting.size > 0) return undefined;
    return new WorkerError(
      `no worker thread can play turns: ${this.replaceFailure ?? "they ended and new ones are starting"}; nothing was committed, the thread is as it was`,
      "no_worker",
    );
  }

  private choose(threadId: string): Slot {
    if (this.strikes.suspect(threadId)) return this.ownSlot(threadId);
    if (this.slots.length === 0) return leastBusy([...this.starting]);
    const now = Date.now();
    const warm = this.warm.get(threadId);
    const least = leastBusy(this.slots);
    let slot = warm && warm.until > now && this.slots.includes(warm.slot) ? warm.slot : least;
    // The warm worker, unless it is the busier by far: it has two turns more than another (left
    // there, CPU-heavy turns would queue on one worker while another idles), or a long turn (a
    // loop up to its budget, which shares its thread with every turn sent to it) while another
    // has none, or fewer turns.
    const busier = (a: Slot, b: Slot) =>
      a.jobs.size >= b.jobs.size + 2 ||
      (this.longTurn(a, now) && (!this.longTurn(b, now) || b.jobs.size < a.jobs.size));
    if (slot !== least && busier(slot, least)) slot = least;
    // A Map keeps insertion order: the oldest entries come first and are the first to go cold.
    const kept = warm?.slot === slot ? warm.kept : undefined;
    this.warm.delete(threadId);
    this.warm.set(threadId, { slot, until: now + this.warmMs, ...(kept !== undefined && { kept }) });
    for (const [id, w] of this.warm) {
      if (w.until > now) break;
      this.warm.delete(id);
    }
    return slot;
  }

  /**
   * The worker of a suspect thread: one of its own, started for its turns, so that a crash is its
   * alone. At most MAX_OWN_WORKERS (or the pool's size, if more): past them, suspects share the
   * least busy. A thread is a suspect for one turn unless it crashes again, so they come and go.
   */
  private ownSlot(threadId: string): Slot {
    this.warm.delete(threadId);
    const had = this.own.get(threadId);
    if (had && !had.endedFor) return had;
    if (this.own.size >= Math.max(MAX_OWN_WORKERS, this.threads)) return leastBusy([...this.own.values()]);
    const slot = this.spawn("own");
    this.own.set(threadId, slot);
    return slot;
  }

  private longTurn(slot: Slot, now: number): boolean {
    // A tool called outside any turn may block its worker as long as a long turn.
    if (slot.toolCalls.size > 0) return true;
    for (const job of slot.jobs.values()) if (now - job.since > LONG_TURN_MS) return true;
    return false;
  }

  private spawn(role: Slot["role"]): Slot {
    const worker = new Worker(this.script, {
      workerData: this.workerData,
      resourceLimits: { maxOldGenerationSizeMb: this.heapLimitMb },
      stdout: false,
      stderr: false,
    });
    worker.unref();
    this.alive++;
    let readied!: (about: unknown) => void;
    let refused!: (err: Error) => void;
    const slot: Slot = {
      worker,
      role,
      retiring: false,
      made: false,
      jobs: new Map(),
      calls: new Map(),
      toolCalls: new Map(),
      making: new Map(),
      heardAt: Date.now(),
      endedFor: null,
      ready: new Promise((res, rej) => {
        readied = res;
        refused = rej;
      }),
    };
    slot.ready.catch(() => undefined);
    this.all.add(slot);
    worker.on("message", (message: FromWorker) => {
      slot.heardAt = Date.now();
      switch (message.type) {
        case "ready": {
          slot.made = true;
          // The turns sent while it started begin now: their wall-clock bound counts from here.
          const now = Date.now();
          for (const job of slot.jobs.values()) job.since = now;
          return readied(message.about);
        }
        case "unusable": {
          // The factory's own message is the cause: a caller that made the script says it its way.
          const err = new Error(`the worker script ${this.script} could not make the agent: ${message.message}`, {
            cause: message.message,
          });
          // A pool whose first workers cannot make the agent serves nothing; a later worker that
          // cannot (its modules gone since) leaves the others serving.
          if (role === "first") this.unusable = err;
          refused(err);
          failAll(slot.jobs, err);
          if (role !== "first") void this.end(slot, err.message);
          return;
        }
        case "made":
        case "unmade": {
          const making = slot.making.get(message.build);
          slot.making.delete(message.build);
          if (message.type === "made") return making?.resolve(message.about);
          return making?.reject(new Error(message.message, { cause: message.message }));
        }
        case "pong":
          return;
        case "spans":
          return relaySpans(message.spans);
        case "call": {
          const running = new AbortController();
          slot.calls.set(message.call, running);
          const post = (answer: ToWorker) => slot.worker.postMessage(answer);
          return void answerCall(this.options.tools ?? {}, message, post, running.signal).finally(() =>
            slot.calls.delete(message.call),
          );
        }
        case "cancel":
          return slot.calls.get(message.call)?.abort(new Error("the turn that called the tool ended"));
        case "tool-answer":
          if (settle(slot.toolCalls, message.id, message)) this.settledOn(slot);
          return;
        case "progress": {
          const request = slot.jobs.get(message.id)?.request;
          if (request)
            readProgress(
              message.items,
              (json, kind) => request.onStep(stepFromText(json, kind)),
              (chunk) => request.onText(chunk),
            );
          return;
        }
        case "missed": {
          const job = slot.jobs.get(message.id);
          if (job) this.send(slot, message.id, job);
          return;
        }
        case "played":
        case "failed": {
          const job = slot.jobs.get(message.id);
          slot.jobs.delete(message.id);
          if (!job) return;
          // The worker counted the turn's compute steps: they count for its run.
          const counts = message.type === "played" ? message.result : message;
          job.request.steps?.add(counts.computeSteps ?? 0, counts.omittedSteps ?? 0);
          // A suspect thread's turn ended on its own worker without ending it.
          if (role === "own") this.strikes.cleared(job.request.threadId);
          if (message.type === "failed" && message.error.retire) this.retire(slot);
          this.settledOn(slot);
          if (message.type === "played") {
            const warm = this.warm.get(job.request.threadId);
            if (warm?.slot === slot) warm.kept = message.result.memory.checksum;
            // The memory comes across as a copy: frozen, it cannot change after the commit, so the
            // store keeps it for the thread's next turn (`memoryCache`) instead of reading it back.
            freezeAll(message.result.memory);
            job.resolve(message.result);
          } else
            job.reject(
              Object.assign(turnError(message.error), {
                // The steps the failed turn made past the stream's limit, counted but not sent.
                ...(message.omittedSteps && { omittedSteps: message.omittedSteps }),
              }),
            );
        }
      }
    });
    worker.on("error", (err) => {
      slot.endedFor ??=
        (err as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY"
          ? `the worker thread running it ran out of memory (its heap limit is ${this.heapLimitMb} MiB)`
          : `the worker thread running it failed: ${err.message}`;
      refused(err);
    });
    worker.on("exit", (code) => {
      // One that ends before it serves (one the watchdog ended) is not waited for: it failed to start.
      if (role !== "first") refused(new WorkerError(slot.endedFor ?? `the worker thread exited (code ${code})`));
      this.lost(slot, code);
    });
    // Messages wait until the worker listens, which it does once its first agent is made.
    for (const [build, data] of this.builds) this.post(slot, { type: "make", build, data });
    return slot;
  }

  /** A worker is gone: its turns fail, a new one takes its place. */
  private lost(slot: Slot, code: number): void {
    this.alive--;
    this.all.delete(slot);
    for (const [threadId, own] of this.own) if (own === slot) this.own.delete(threadId);
    const why = slot.endedFor ?? `the worker thread running it exited (code ${code})`;
    const err = new WorkerError(`${why}; nothing was committed, the thread is as it was`);
    // The threads it was playing are charged with its end, unless the pool ended it on purpose.
    if (!this.closed && slot.made && slot.endedFor !== RETIRED)
      this.strikes.crashed(
        [...slot.jobs.values()].map((job) => job.request.threadId),
        why,
      );
    failAll(slot.jobs, err);
    failAll(slot.toolCalls, new WorkerError(`${why}; the tool's call was not answered`));
    for (const call of slot.calls.values()) call.abort(err);
    failAll(slot.making, err);
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    // A serving worker the pool did not retire (those leave `slots` as they retire) ended by itself.
    if (!this.closed && !this.unusable) this.replace(true);
  }

  /**
   * Starts a worker to take the place of one that ended (`instead`; else one the pool lacks): it
   * serves once it has made its agent. One that cannot (the agent's modules are gone) is logged
   * once per kind of failure and tried again, after 1 s, then twice as long each time up to a
   * minute, while the others serve.
   */
  private replace(afterCrash: boolean, instead = true): void {
    if (this.closed) return;
    const slot = this.spawn("replacement");
    slot.afterCrash = afterCrash;
    this.starting.add(slot);
    slot.ready.then(
      () => {
        this.starting.delete(slot);
        if (this.closed || slot.endedFor) return;
        this.slots.push(slot);
        this.replaceFailure = undefined;
        this.respawnMs = RESPAWN_FIRST_MS;
        this.logged.clear();
      },
      (err: Error) => {
        this.starting.delete(slot);
        void this.end(slot, err.message);
        if (this.closed) return;
        const why = err.message;
        this.replaceFailure = why;
        if (!this.logged.has(why)) {
          this.logged.add(why);
          console.error(
            `autograms: a worker thread could not be started${instead ? " in place of one that ended" : ""} (${this.slots.length} of ${this.threads} serve; trying again, up to every ${RESPAWN_MOST_MS / 1000} s): ${why}`,
          );
        }
        this.respawnTimer = setTimeout(() => this.replace(afterCrash, instead), this.respawnMs);
        this.respawnTimer.unref();
        this.respawnMs = Math.min(2 * this.respawnMs, RESPAWN_MOST_MS);
      },
    );
  }

  /** Takes a worker out of service, a new one in its place; it ends once its turns have. */
  private retire(slot: Slot): void {
    slot.retiring = true;
    const i = this.slots.indexOf(slot);
    if (i >= 0) {
      this.slots.splice(i, 1);
      this.replace(false);
    }
    this.settledOn(slot);
  }

  /** A turn of this worker ended: one that takes no more ends when it has none left. */
  private settledOn(slot: Slot): void {
    if (slot.jobs.size === 0 && slot.toolCalls.size === 0 && (slot.retiring || slot.role === "own"))
      void this.end(slot, RETIRED);
  }

  /**
   * Pings the busy workers; ends one silent beyond any turn's budget; fails a turn past its
   * wall-clock bound that its worker did not stop, and retires that worker.
   */
  private watch(): void {
    const now = Date.now();
    for (const slot of this.all) {
      if ((slot.jobs.size === 0 && slot.toolCalls.size === 0) || slot.endedFor) continue;
      let stuck = false;
      for (const [id, job] of slot.made ? slot.jobs : []) {
        if (now - job.since <= this.budgets.wallMs + STOP_GRACE_MS) continue;
        slot.jobs.delete(id);
        this.post(slot, { type: "stop", id, reason: "the turn is past its wall-clock bound" });
        job.reject(
          new TurnBudgetError(
            "turn_timeout",
            `${wallTimeout(this.budgets.wallMs)} (its worker thread did not stop it, and is replaced)`,
          ),
        );
        stuck = true;
      }
      if (stuck) {
        this.retire(slot);
        continue;
      }
      const silent = now - slot.heardAt;
      if (silent > this.budgets.timeMs + SILENCE_GRACE_MS) {
        void this.end(
          slot,
          slot.made
            ? `the worker thread running it did not answer for ${silent} ms (a step or a tool that never ends) and was restarted`
            : `the worker thread meant to run it did not make its agent within ${silent} ms and was ended`,
        );
      } else this.post(slot, { type: "ping" });
    }
  }

  private async end(slot: Slot, why: string): Promise<void> {
    slot.endedFor ??= why;
    await slot.worker.terminate();
  }

  /** Sends a turn to its worker: with the thread's memory, or only its checksum when the worker holds it (`kept`). */
  private send(slot: Slot, id: number, job: Job, kept?: string): void {
    const { threadId, text, memory, build, wholeSteps, modelSettings, steps } = job.request;
    this.post(slot, {
      type: "play",
      id,
      threadId,
      text,
      ...(kept !== undefined ? { memory: null, kept } : { memory }),
      ...(job.trace && { trace: job.trace }),
      ...(build !== undefined && { build }),
      ...(wholeSteps && { wholeSteps: true }),
      ...(modelSettings && { modelSettings }),
      ...(steps && { computeStepsLeft: steps.left }),
    });
  }

  private post(slot: Slot, message: ToWorker): void {
    try {
      slot.worker.postMessage(message);
    } catch {
      // The worker is gone: its exit handler fails the turn.
    }
  }
}

/** Fails every one waiting in `waiting`, and forgets them. */
function failAll(waiting: Map<number, { reject(err: Error): void }>, err: Error): void {
  for (const w of waiting.values()) w.reject(err);
  waiting.clear();
}

/** The worker with the fewest turns, its tools' calls (`callTool`) counted as one. */
const leastBusy = (slots: Slot[]) => {
  const load = (s: Slot) => s.jobs.size + (s.toolCalls.size > 0 ? 1 : 0);
  return slots.reduce((a, b) => (load(b) < load(a) ? b : a));
};

function freezeAll(value: unknown): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Array.isArray(value) ? value : Object.values(value)) freezeAll(v);
}
