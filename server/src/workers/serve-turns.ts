/**
 * The worker thread's side of a turn pool: a worker script calls `serveTurns(makeAgent)` once;
 * the agent is made in the thread (with its model, tools and actions) from the data the pool was
 * given, and the thread then plays the turns it is sent, several at once (a turn waiting for its
 * model lets the others run).
 */
import { getHeapStatistics } from "node:v8";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import type { Agent } from "@autograms/runtime";
import { recordSpans, type SpanRecorder } from "@autograms/runtime/telemetry";
import { MemoryCache } from "@autograms/store";
import {
  addStepItem,
  addTextItem,
  answer,
  callError,
  failedTurn,
  type FromWorker,
  type PlayedResult,
  type ProgressItems,
  type ToWorker,
  type WorkerStart,
} from "./protocol.js";
import { playTurn } from "./play-turn.js";
import { SharedTools, type WorkerHost } from "./shared-tools.js";
import { ComputeSteps } from "../runs/bounded-steps.js";

/** Threads whose memory a worker holds after playing their turns (the most recent ones, up to WorkerStart.keptMb). */
const KEPT_THREADS = 100;
/** Progress is sent at least this often while a turn runs without waiting, and in batches of at most this many items. */
const FLUSH_MS = 5;
const FLUSH_ITEMS = 256;

/**
 * An agent made in a worker, with plain data about it that the pool hands its owner
 * (`TurnPool.ready()`): what only the thread that loaded the agent's modules can tell.
 */
export interface MadeAgent {
  agent: Agent;
  about: unknown;
}

/**
 * `host.tools`: the tools the pool's thread holds for its workers (WorkerOptions.tools), called
 * through it; they answer once the agent is made.
 */
export function serveTurns(
  makeAgent: (data: unknown, host: WorkerHost) => Agent | MadeAgent | Promise<Agent | MadeAgent>,
): void {
  if (isMainThread || !parentPort)
    throw new Error("serveTurns() runs in a worker thread started by a turn pool (AppOptions.workers)");
  const port = parentPort;
  const send = (message: FromWorker) => port.postMessage(message);
  const start = workerData as WorkerStart;
  // V8's limit: what the heap runs out at, the young generation included, so it differs by Node
  // line (an old generation of 352 MiB reads 400 on Node 20, 544 on 24). A tighter bound on what
  // the worker holds outside its heap (the old generation alone) failed calm turns after a looping
  // one, on buffers that one left to be collected.
  const heapLimitBytes = getHeapStatistics().heap_size_limit;
  const turns = new Map<number, AbortController>();
  // The memory each thread's last turn here left (frozen, as the runtime hands it out, so the next
  // turn takes it back unchecked): the pool need not send it again, nor this thread read it anew.
  const kept = new MemoryCache(KEPT_THREADS, start.keptMb * 1024 * 1024);
  const shared = new SharedTools(start.tools, send);
  // The agent's tools called outside any turn (the tool playground, routes/tools.ts), by id.
  const toolCalls = new Map<number, AbortController>();
  // Registered with the first turn the pool asks to trace (its thread may register its SDK late).
  let spans: SpanRecorder | undefined;
  let recording = false;
  void (async () => {
    let made: Agent | MadeAgent;
    try {
      made = await makeAgent(start.data, { tools: shared.tools });
    } catch (err) {
      send({ type: "unusable", message: err instanceof Error ? err.message : String(err) });
      return;
    }
    const agent = "about" in made ? made.agent : made;
    // The agents of the builds played here, by number: 0 is the one made above; a pool makes more
    // (`make`: an edit whose modules did not change) and a run plays on the build it started on.
    const builds = new Map<number, Promise<Agent>>([[0, Promise.resolve(agent)]]);
    const on = (build: number | undefined, id: number, work: (agent: Agent) => Promise<void>) => {
      if (build === undefined) return void work(agent);
      const made = builds.get(build);
      if (!made) return send({ type: "failed", id, error: { code: "internal", message: `no build ${build} here` } });
      void made.then(work, () =>
        send({ type: "failed", id, error: { code: "internal", message: `build ${build} could not be made` } }),
      );
    };
    port.on("message", (message: ToWorker) => {
      if (message.type === "ping") send({ type: "pong" });
      else if (message.type === "stop") turns.get(message.id)?.abort(new StopError(message.reason));
      else if (message.type === "answer") shared.answered(message);
      else if (message.type === "make") {
        const made = make(message.build, message.data);
        // Its turns, if any come, say it failed: not a rejection nobody handles (which ends the thread).
        made.catch(() => undefined);
        builds.set(message.build, made);
      } else if (message.type === "drop") builds.delete(message.build);
      else if (message.type === "tool") {
        const { build } = message;
        const made = build === undefined ? Promise.resolve(agent) : builds.get(build);
        void callTool(made ?? Promise.reject(new Error(`no build ${build} here`)), message);
      } else if (message.type === "stop-tool") toolCalls.get(message.id)?.abort(new Error(message.reason));
      else on(message.build, message.id, (agent) => play(agent, message));
    });
    send("about" in made ? { type: "ready", about: made.about } : { type: "ready" });
  })();

  async function make(build: number, data: unknown): Promise<Agent> {
    try {
      const made = await makeAgent(data, { tools: shared.tools });
      send("about" in made ? { type: "made", build, about: made.about } : { type: "made", build });
      return "about" in made ? made.agent : made;
    } catch (err) {
      send({ type: "unmade", build, message: err instanceof Error ? err.message : String(err) });
      throw err;
    }
  }

  /**
   * Calls one of the agent's tools outside any turn, here where its modules are loaded. A stop
   * aborts the signal the tool was given; a tool that ignores it keeps running here, and the pool
   * replaces the worker (`TurnPool.callTool`).
   */
  function callTool(agent: Promise<Agent>, { id, name, args }: Extract<ToWorker, { type: "tool" }>): Promise<void> {
    const stop = new AbortController();
    toolCalls.set(id, stop);
    return answer(
      async () => {
        try {
          return (await (await agent).callTool(name, args, stop.signal)) ?? null;
        } finally {
          toolCalls.delete(id);
        }
      },
      (outcome) => send({ type: "tool-answer", id, ...outcome }),
      (err) => ({ name: "Error", message: `its result cannot be sent: ${callError(err).message}` }),
    );
  }

  async function play(agent: Agent, message: Extract<ToWorker, { type: "play" }>): Promise<void> {
    const { id } = message;
    const memory = message.kept === undefined ? message.memory : (kept.get(message.threadId, message.kept) ?? null);
    if (message.kept !== undefined && memory === null) return send({ type: "missed", id });
    const stop = new AbortController();
    turns.set(id, stop);
    let items: ProgressItems = [];
    /** Steps and pieces of the reply in `items`. */
    let count = 0;
    let since = performance.now();
    let waiting: NodeJS.Immediate | null = null;
    const flush = () => {
      if (waiting) clearImmediate(waiting);
      waiting = null;
      if (items.length) send({ type: "progress", id, items });
      items = [];
      count = 0;
      since = performance.now();
    };
    /** After an item is put in `items`. */
    const added = () => {
      if (++count >= FLUSH_ITEMS || performance.now() - since >= FLUSH_MS) flush();
      // A turn that stops to wait (for its model, a tool) sends what it has at once: without this,
      // the steps it took in its last few milliseconds would reach its clients, and the store,
      // only once the wait is over. An immediate runs only when the turn waits or yields.
      else waiting ??= setImmediate(flush);
    };
    // The steps past the run's stream's bound are only counted here, not sent: a loop of a million
    // steps costs the main thread a count, not a million messages to read and drop.
    const steps = message.wholeSteps ? undefined : new ComputeSteps(message.computeStepsLeft);
    const counts = () =>
      steps && {
        computeSteps: steps.played,
        ...(steps.omitted > 0 && { omittedSteps: steps.omitted }),
      };
    if (message.trace && !recording) {
      recording = true;
      spans = recordSpans((recorded) => send({ type: "spans", spans: recorded }));
    }
    const play = (work: () => Promise<PlayedResult>) =>
      shared.during(id, () => (message.trace && spans ? spans.run(message.trace, work) : work()));
    try {
      const result = await play(() =>
        playTurn(agent, message.text, memory, {
          signal: stop.signal,
          budgets: start.budgets,
          heapLimitBytes,
          wholeSteps: message.wholeSteps,
          modelSettings: message.modelSettings,
          ...(steps && { steps }),
          onStep: (step, json) => {
            addStepItem(items, step.kind, json);
            added();
          },
          onText: (text) => {
            addTextItem(items, text);
            added();
          },
        }),
      );
      flush();
      kept.set(message.threadId, result.memory);
      // The packed trace and delta move to the server's thread (their memory changes hands), so
      // what it receives costs it nothing however many steps the turn took.
      const packed = { trace: owned(result.packed.trace), delta: result.packed.delta && owned(result.packed.delta) };
      port.postMessage(
        {
          type: "played",
          id,
          result: { ...result, packed, ...counts() },
        } satisfies FromWorker,
        [packed.trace.buffer, ...(packed.delta ? [packed.delta.buffer] : [])],
      );
    } catch (err) {
      flush();
      send({ type: "failed", id, error: failedTurn(err), ...counts() });
    } finally {
      turns.delete(id);
    }
  }
}

/**
 * Bytes in a memory of their own, which can be transferred: a small Buffer is a view of Node's
 * shared pool, which cannot move (and must not: other Buffers live there).
 */
function owned(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const { buffer } = bytes;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength)
    return bytes as Uint8Array<ArrayBuffer>;
  return new Uint8Array(bytes);
}

/** A turn stopped from the main thread: its message is the main thread's. */
class StopError extends Error {
  readonly code = "stopped";
}
