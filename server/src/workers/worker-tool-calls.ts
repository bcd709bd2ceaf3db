/**
 * The worker's side of one of the agent's tools called outside any turn (the tool playground,
 * routes/tools.ts): the agent of the build named calls it, here where its modules are loaded, and
 * its value or its error goes back. `stop` aborts the signal the tool was given; a tool that
 * ignores it keeps running here, and the pool replaces the worker (pool-tool-calls.ts).
 */
import type { Agent } from "@autograms/runtime";
import type { FromWorker, ToolCallMessage } from "./protocol.js";
import { callError } from "./shared-tools.js";

export class WorkerToolCalls {
  private readonly running = new Map<number, AbortController>();

  constructor(private readonly send: (message: FromWorker) => void) {}

  async call(agent: Promise<Agent>, message: ToolCallMessage): Promise<void> {
    const { id } = message;
    const stop = new AbortController();
    this.running.set(id, stop);
    let answer: FromWorker;
    try {
      const value = await (await agent).callTool(message.name, message.args, stop.signal);
      answer = { type: "tool-answer", id, value: value ?? null };
    } catch (err) {
      answer = { type: "tool-answer", id, error: callError(err) };
    } finally {
      this.running.delete(id);
    }
    try {
      this.send(answer);
    } catch (err) {
      // A value structured cloning refuses (a function, a class instance with private fields).
      const { message: why } = callError(err);
      this.send({ type: "tool-answer", id, error: { name: "Error", message: `its result cannot be sent: ${why}` } });
    }
  }

  stop(id: number, reason: string): void {
    this.running.get(id)?.abort(new Error(reason));
  }
}
