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
import { stoppedBy, thrown, type FromWorker, type ToWorker } from "./protocol.js";

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
    const answered = new Promise((resolve, reject) => this.waiting.set(id, { slot, resolve, reject }));
    this.post(slot, {
      type: "tool",
      id,
      name: request.name,
      args: request.args,
      ...(request.build !== undefined && { build: request.build }),
    });
    return stoppedBy(request.signal, answered, (reason) => {
      this.post(slot, { type: "stop-tool", id, reason: reason instanceof Error ? reason.message : String(reason) });
      // Not ended by then, the call may keep its worker busy for ever.
      const giveUp = setTimeout(() => {
        if (!this.waiting.delete(id)) return;
        this.stuck(slot);
      }, this.graceMs);
      giveUp.unref();
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
