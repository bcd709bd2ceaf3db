/**
 * The pool's side of the agent's tools called outside any turn (the tool playground,
 * routes/tools.ts): a call goes to a worker, where the agent's modules are loaded, as a message
 * with an id, and comes back as the tool's value or its error. A tool that loops or ends its
 * thread takes that worker, never the server's thread: the pool's watchdog ends a worker silent in
 * a call as in a turn, and a worker that ends fails the calls it had. A call whose signal is
 * aborted (the route's time limit) fails at once; its worker is told to stop it, and if the tool
 * has not ended `graceMs` later, the worker (which may keep running it) is replaced.
 */
import type { Agent } from "@autograms/runtime";
import { thrown, type FromWorker, type ToWorker } from "./protocol.js";

export interface ToolCallRequest {
  /** The build served, for a player that calls its tools in this thread (InProcessPlayer). */
  agent?: Agent;
  /** The build of a pool's workers whose agent has the tool (`TurnPool.make`). */
  build?: number;
  name: string;
  /** As `Agent.callTool` takes them. */
  args: Record<string, unknown> | unknown[];
  /** Aborted: the call fails with its reason, and the tool is given it. */
  signal: AbortSignal;
}

interface Waiting<S> {
  slot: S;
  resolve(value: unknown): void;
  reject(err: Error): void;
  /** Set once the call was stopped: when its worker is given up on. */
  giveUp?: NodeJS.Timeout;
}

export class PoolToolCalls<S> {
  private readonly waiting = new Map<number, Waiting<S>>();
  private nextId = 1;

  constructor(
    private readonly post: (slot: S, message: ToWorker) => void,
    /** The worker did not end a stopped call in time: it is to be replaced. */
    private readonly stuck: (slot: S) => void,
    private readonly graceMs: number,
  ) {}

  call(slot: S, request: ToolCallRequest): Promise<unknown> {
    const id = this.nextId++;
    const { signal } = request;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const reason = signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));
        reject(reason);
        this.post(slot, { type: "stop-tool", id, reason: reason.message });
        waiting.giveUp = setTimeout(() => {
          if (this.waiting.get(id) !== waiting) return;
          this.waiting.delete(id);
          this.stuck(slot);
        }, this.graceMs);
        waiting.giveUp.unref();
      };
      const waiting: Waiting<S> = {
        slot,
        resolve,
        reject,
      };
      const settle =
        <A>(f: (a: A) => void) =>
        (a: A) => {
          signal.removeEventListener("abort", onAbort);
          clearTimeout(waiting.giveUp);
          f(a);
        };
      waiting.resolve = settle(resolve);
      waiting.reject = settle(reject);
      this.waiting.set(id, waiting);
      signal.addEventListener("abort", onAbort, { once: true });
      this.post(slot, {
        type: "tool",
        id,
        name: request.name,
        args: request.args,
        ...(request.build !== undefined && { build: request.build }),
      });
      if (signal.aborted) onAbort();
    });
  }

  /** A worker's answer: the call ends (a call already stopped is settled already). Returns the worker that answered. */
  answered(message: Extract<FromWorker, { type: "tool-answer" }>): S | undefined {
    const waiting = this.waiting.get(message.id);
    if (!waiting) return undefined;
    this.waiting.delete(message.id);
    if ("error" in message) waiting.reject(thrown(message.error));
    else waiting.resolve(message.value);
    return waiting.slot;
  }

  /** The worker ended: its calls fail with `err`. */
  lost(slot: S, err: Error): void {
    for (const [id, waiting] of this.waiting) {
      if (waiting.slot !== slot) continue;
      this.waiting.delete(id);
      waiting.reject(err);
    }
  }

  /** Whether the worker runs a call (its silence is watched; it is not ended while retiring). */
  busy(slot: S): boolean {
    for (const waiting of this.waiting.values()) if (waiting.slot === slot) return true;
    return false;
  }
}
