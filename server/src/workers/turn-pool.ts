/**
 * Worker threads that play the server's turns, so the HTTP event loop only moves bytes: whatever
 * a turn computes, the server keeps answering. Each thread makes its own agent (a worker script
 * that calls `serveTurns`) and plays several turns at once. A thread's turns go to the worker
 * that played its last one while it is warm (what a worker keeps of a thread stays useful), unless
 * that worker is the busier by far; else to the least busy. A worker that dies (its heap limit, a tool that exits the thread) or stops
 * answering (one step that never ends) fails its own turns only, and is replaced.
 */
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Tool } from "@autograms/runtime";
import { relayTrace, replaySpans, type RelayTrace } from "@autograms/runtime/telemetry";
import { readProgress, type FromWorker, type PlayedResult, type ToWorker, type WorkerStart } from "./protocol.js";
import { answerCall, sharedToolInfo } from "./shared-tools.js";
import { turnError } from "./failed-turn.js";
import { budgetsOf, type TurnBudgets } from "./turn-budget.js";
import type { PlayRequest, TurnPlayer } from "./turn-player.js";
import { stepFromText } from "@autograms/store";

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
   * Tools held in this thread that the workers' turns call through it, given to the worker
   * script's `makeAgent` as `host.tools` (with their definitions, for the model): what must exist
   * once per process, such as MCP tools (one connection per server, not one per worker). Their
   * values cross threads by structured cloning.
   */
  tools?: Record<string, Tool>;
  /** Called once the pool has closed and its workers have ended: what holds `tools` may let them go (an MCP server stopped). */
  onClose?: () => Promise<void>;
}

export class WorkerError extends Error {
  readonly code = "worker_lost";
}

interface Job {
  request: PlayRequest;
  /** When it was sent to its worker. */
  since: number;
  resolve(result: PlayedResult): void;
  reject(err: Error): void;
  /** Traced in this thread, the turn's spans come back from the worker and are exported by this thread's SDK. */
  trace: RelayTrace | undefined;
}

interface Slot {
  worker: Worker;
  jobs: Map<number, Job>;
  /** Resolves with what the worker's factory told of its agent (`MadeAgent.about`). */
  ready: Promise<unknown>;
  /** When it last answered (a ping, a turn's progress). */
  heardAt: number;
  /** Why the pool ended it, if it did. */
  endedFor: string | null;
  /** The calls of shared tools (WorkerOptions.tools) this thread runs for it, by id. */
  calls: Map<number, AbortController>;
  /** The builds it is making (`make`), by number. */
  making: Map<number, { resolve(about: unknown): void; reject(err: Error): void }>;
}

const PING_MS = 500;
/** A turn still playing after this long is computing (or waiting on a slow model): not one to share a worker with by choice. */
const LONG_TURN_MS = 250;
/** A worker silent this long beyond the time budget is running something no step check reaches. */
const SILENCE_GRACE_MS = 2000;

export class TurnPool implements TurnPlayer {
  private readonly slots: Slot[] = [];
  /** Each thread's warm worker, and the checksum of the memory that worker holds from its last turn. */
  private readonly warm = new Map<string, { slot: Slot; until: number; kept?: string }>();
  private readonly budgets: TurnBudgets;
  private readonly heapLimitMb: number;
  private readonly warmMs: number;
  private readonly script: string;
  private readonly sharedInfo: WorkerStart["tools"];
  private readonly watchdog: NodeJS.Timeout;
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

  constructor(private readonly options: WorkerOptions) {
    this.budgets = budgetsOf(options.budgets, "workers.budgets");
    const size = options.size ?? availableParallelism();
    if (!(Number.isInteger(size) && size >= 1))
      throw new RangeError(`workers.size takes a whole number of threads, at least 1, not ${JSON.stringify(size)}`);
    this.heapLimitMb = options.heapLimitMb ?? 2 * this.budgets.memoryMb + 256;
    this.warmMs = options.warmMs ?? 10 * 60_000;
    this.script = options.script instanceof URL ? fileURLToPath(options.script) : options.script;
    this.sharedInfo = sharedToolInfo(options.tools ?? {});
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
    this.watchdog = setInterval(() => this.watch(), PING_MS);
    this.watchdog.unref();
  }

  get threads(): number {
    return this.slots.length;
  }

  /** Worker threads of this pool still running: 0 once it is closed and they have exited. */
  get liveThreads(): number {
    return this.alive;
  }

  /**
   * Resolves once every worker has made its agent, with what the first one's factory told of it
   * (`MadeAgent.about`; undefined for a factory that returns the agent alone); rejects with why
   * one could not.
   */
  async ready(): Promise<unknown> {
    const [about] = await Promise.all(this.slots.map((s) => s.ready));
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
    const build = this.nextBuild++;
    this.builds.set(build, data);
    try {
      const made = this.slots.map(
        (slot) =>
          new Promise<unknown>((resolve, reject) => {
            slot.making.set(build, { resolve, reject });
            this.post(slot, { type: "make", build, data });
          }),
      );
      const [about] = await Promise.all(made);
      return { build, about };
    } catch (err) {
      this.drop(build);
      throw err;
    }
  }

  /** No turn will name this build again (0: the agent the workers made as they started): its agent goes. */
  drop(build: number): void {
    this.builds.delete(build);
    for (const slot of this.slots) this.post(slot, { type: "drop", build });
  }

  play(request: PlayRequest): Promise<PlayedResult> {
    if (this.unusable) return Promise.reject(this.unusable);
    if (this.closed) return Promise.reject(new WorkerError("the turn pool is closed"));
    const slot = this.choose(request.threadId);
    const id = this.nextId++;
    return new Promise<PlayedResult>((resolve, reject) => {
      // A stopped turn fails at once with its reason; the worker, told to stop it, answers later
      // (the job stays counted until then, so a worker that never answers is still watched).
      let settled = false;
      const once =
        <A>(f: (a: A) => void) =>
        (a: A) => {
          if (settled) return;
          settled = true;
          request.signal.removeEventListener("abort", onAbort);
          f(a);
        };
      const job: Job = {
        request,
        since: Date.now(),
        resolve: once(resolve as (result: PlayedResult) => void),
        reject: once(reject),
        trace: relayTrace(),
      };
      const onAbort = () => {
        this.post(slot, { type: "stop", id, reason: String(request.signal.reason) });
        job.reject(
          request.signal.reason instanceof Error ? request.signal.reason : new Error(String(request.signal.reason)),
        );
      };
      request.signal.addEventListener("abort", onAbort, { once: true });
      slot.jobs.set(id, job);
      if (slot.jobs.size === 1) slot.heardAt = Date.now();
      // The worker holds the memory of the thread's last turn it played: when that is the memory
      // this turn starts from, only its checksum is sent (no copy, and the worker need not check it).
      const kept = this.warm.get(request.threadId)?.kept;
      const held = kept !== undefined && request.memory?.checksum === kept;
      this.post(slot, {
        type: "play",
        id,
        threadId: request.threadId,
        text: request.text,
        ...(held ? { memory: null, kept } : { memory: request.memory }),
        ...(job.trace && { trace: job.trace }),
        ...(request.build !== undefined && { build: request.build }),
        ...(request.wholeSteps && { wholeSteps: true }),
      });
      if (request.signal.aborted) onAbort();
    });
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      clearInterval(this.watchdog);
      await Promise.all(this.slots.map((s) => this.end(s, "the server is stopping")));
      await this.options.onClose?.();
    })();
    return this.closing;
  }

  private choose(threadId: string): Slot {
    const now = Date.now();
    const warm = this.warm.get(threadId);
    const least = this.slots.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
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

  private longTurn(slot: Slot, now: number): boolean {
    for (const job of slot.jobs.values()) if (now - job.since > LONG_TURN_MS) return true;
    return false;
  }

  private spawn(): Slot {
    const start: WorkerStart = { data: this.options.data, budgets: this.budgets, tools: this.sharedInfo };
    const worker = new Worker(this.script, {
      workerData: start,
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
      jobs: new Map(),
      calls: new Map(),
      making: new Map(),
      heardAt: Date.now(),
      endedFor: null,
      ready: new Promise((res, rej) => {
        readied = res;
        refused = rej;
      }),
    };
    slot.ready.catch(() => undefined);
    worker.on("message", (message: FromWorker) => {
      slot.heardAt = Date.now();
      switch (message.type) {
        case "ready":
          return readied(message.about);
        case "unusable":
          // The factory's own message is the cause: a caller that made the script says it its way.
          this.unusable = new Error(`the worker script ${this.script} could not make the agent: ${message.message}`, {
            cause: message.message,
          });
          refused(this.unusable);
          for (const job of slot.jobs.values()) job.reject(this.unusable);
          slot.jobs.clear();
          return;
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
          return replaySpans(message.spans);
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
          if (job?.request) {
            const { threadId, text, memory, build, wholeSteps } = job.request;
            this.post(slot, {
              type: "play",
              id: message.id,
              threadId,
              text,
              memory,
              ...(job.trace && { trace: job.trace }),
              ...(build !== undefined && { build }),
              ...(wholeSteps && { wholeSteps: true }),
            });
          }
          return;
        }
        case "played":
        case "failed": {
          const job = slot.jobs.get(message.id);
          slot.jobs.delete(message.id);
          if (!job) return;
          if (message.type === "played") {
            const warm = job.request && this.warm.get(job.request.threadId);
            if (warm?.slot === slot) warm.kept = message.result.memory.checksum;
            job.resolve(frozenMemory(message.result));
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
    worker.on("exit", (code) => this.lost(slot, code));
    // Messages wait until the worker listens, which it does once its first agent is made.
    for (const [build, data] of this.builds) this.post(slot, { type: "make", build, data });
    return slot;
  }

  /** A worker is gone: its turns fail, a new one takes its place. */
  private lost(slot: Slot, code: number): void {
    this.alive--;
    const why = slot.endedFor ?? `the worker thread running it exited (code ${code})`;
    const err = new WorkerError(`${why}; nothing was committed, the thread is as it was`);
    for (const job of slot.jobs.values()) job.reject(err);
    slot.jobs.clear();
    for (const call of slot.calls.values()) call.abort(err);
    for (const making of slot.making.values()) making.reject(err);
    const i = this.slots.indexOf(slot);
    if (i < 0 || this.closed || this.unusable) return;
    this.slots[i] = this.spawn();
  }

  /** Pings the busy workers; ends one silent beyond any turn's budget. */
  private watch(): void {
    const now = Date.now();
    for (const slot of this.slots) {
      if (slot.jobs.size === 0 || slot.endedFor) continue;
      const silent = now - slot.heardAt;
      if (silent > this.budgets.timeMs + SILENCE_GRACE_MS) {
        void this.end(
          slot,
          `the worker thread running it did not answer for ${silent} ms (a step or a tool that never ends) and was restarted`,
        );
      } else this.post(slot, { type: "ping" });
    }
  }

  private async end(slot: Slot, why: string): Promise<void> {
    slot.endedFor ??= why;
    await slot.worker.terminate();
  }

  private post(slot: Slot, message: ToWorker): void {
    try {
      slot.worker.postMessage(message);
    } catch {
      // The worker is gone: its exit handler fails the turn.
    }
  }
}

/**
 * The memory a worker played comes across as a copy: frozen, it cannot change after the commit,
 * so the store keeps it for the thread's next turn (`memoryCache`) instead of reading it back.
 */
function frozenMemory(result: PlayedResult): PlayedResult {
  freezeAll(result.memory);
  return result;
}

function freezeAll(value: unknown): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Array.isArray(value) ? value : Object.values(value)) freezeAll(v);
}
