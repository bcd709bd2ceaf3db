/**
 * The worker thread's side of a turn pool: a worker script calls `serveTurns(makeAgent)` once;
 * the agent is made in the thread (with its model, tools and actions) from the data the pool was
 * given, and the thread then plays the turns it is sent, several at once (a turn waiting for its
 * model lets the others run).
 */
import { getHeapStatistics } from "node:v8";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import type { Agent } from "@autograms/runtime";
import type { FromWorker, Progress, ToWorker, WorkerStart } from "./protocol.js";
import { playTurn } from "./play-turn.js";
import { COMPUTE_STEPS, MAX_COMPUTE_STEPS } from "../runs/bounded-steps.js";

/** Progress is sent at least this often while a turn runs without waiting, and in batches of at most this many items. */
const FLUSH_MS = 5;
const FLUSH_ITEMS = 256;

export function serveTurns(makeAgent: (data: unknown) => Agent | Promise<Agent>): void {
  if (isMainThread || !parentPort)
    throw new Error("serveTurns() runs in a worker thread started by a turn pool (AppOptions.workers)");
  const port = parentPort;
  const send = (message: FromWorker) => port.postMessage(message);
  const start = workerData as WorkerStart;
  const heapLimitBytes = getHeapStatistics().heap_size_limit;
  const turns = new Map<number, AbortController>();
  void (async () => {
    let agent: Agent;
    try {
      agent = await makeAgent(start.data);
    } catch (err) {
      send({ type: "unusable", message: err instanceof Error ? err.message : String(err) });
      return;
    }
    port.on("message", (message: ToWorker) => {
      if (message.type === "ping") send({ type: "pong" });
      else if (message.type === "stop") turns.get(message.id)?.abort(new StopError(message.reason));
      else void play(agent, message);
    });
    send({ type: "ready" });
  })();

  async function play(agent: Agent, message: Extract<ToWorker, { type: "play" }>): Promise<void> {
    const { id } = message;
    const stop = new AbortController();
    turns.set(id, stop);
    let items: Progress[] = [];
    let since = performance.now();
    const flush = () => {
      if (items.length) send({ type: "progress", id, items });
      items = [];
      since = performance.now();
    };
    const add = (item: Progress) => {
      items.push(item);
      if (items.length >= FLUSH_ITEMS || performance.now() - since >= FLUSH_MS) flush();
    };
    // A run's stream takes at most MAX_COMPUTE_STEPS compute steps (runs/bounded-steps.ts): those
    // after them are only counted here, not sent, so a loop of a million steps costs the main
    // thread a count, not a million messages to read and drop.
    let computeSteps = 0;
    let omittedSteps = 0;
    try {
      const result = await playTurn(agent, message.text, message.memory, {
        signal: stop.signal,
        budgets: start.budgets,
        heapLimitBytes,
        onStep: (step) => {
          if (COMPUTE_STEPS.has(step.kind) && ++computeSteps > MAX_COMPUTE_STEPS) omittedSteps++;
          else add({ step });
        },
        onText: (text) => add({ text }),
      });
      flush();
      send({ type: "played", id, result: omittedSteps > 0 ? { ...result, omittedSteps } : result });
    } catch (err) {
      flush();
      const code = (err as { code?: unknown }).code;
      send({
        type: "failed",
        id,
        error: {
          code: typeof code === "string" ? code : "internal",
          message: err instanceof Error ? err.message : String(err),
        },
        ...(omittedSteps > 0 && { omittedSteps }),
      });
    } finally {
      turns.delete(id);
    }
  }
}

/** A turn stopped from the main thread: its message is the main thread's. */
class StopError extends Error {
  readonly code = "stopped";
}
