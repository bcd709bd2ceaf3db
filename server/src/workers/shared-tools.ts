/**
 * Tools the pool's own thread holds and its workers' turns call through it (`WorkerOptions.tools`):
 * what must exist once per process, such as the connection to an MCP server, whose stdio server
 * would otherwise be started again by every worker. A call goes to the pool's thread as a message
 * with an id and comes back as its value or its error; the turn waits for it as for any tool, so
 * its deadline and its stop bound a call that never answers, as they bound a local tool. When the
 * turn ends with calls still running, the worker says so and the pool's thread aborts them (a
 * `defineTool` tool gets the signal: an MCP tool cancels its request at the server).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { defineTool, toolDefinitionOf, type Tool, type ToolParameters } from "@autograms/runtime";
import { answer, settle, type FromWorker, type SharedToolInfo, type ToWorker } from "./protocol.js";

type Answer = Extract<ToWorker, { type: "answer" }>;

/** What a worker's makeAgent is given besides the pool's data. */
export interface WorkerHost {
  /** The pool's shared tools, as tools of this thread: pass them to the Agent with the others. */
  tools: Record<string, Tool>;
}

/** The pool's side: what a worker is told of each shared tool. */
export function sharedToolInfo(tools: Record<string, Tool>): Record<string, SharedToolInfo | null> {
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => {
      const definition = toolDefinitionOf(tool);
      const title = (tool as { title?: unknown }).title;
      return [name, definition ? { definition, title: typeof title === "string" ? title : definition.name } : null];
    }),
  );
}

/** The pool's side: runs a worker's call and answers it. `signal`: aborted when the worker no longer waits for it. */
export function answerCall(
  tools: Record<string, Tool>,
  { call, tool: name, args }: Extract<FromWorker, { type: "call" }>,
  post: (answer: Answer) => void,
  signal: AbortSignal,
): Promise<void> {
  return answer(
    async () => {
      const tool = tools[name];
      if (!tool) throw new Error(`the pool holds no tool '${name}'`);
      // A defineTool tool takes its arguments object and then its run options (ToolSpec.run).
      return await tool(...(toolDefinitionOf(tool) ? [args[0], { signal }] : args));
    },
    (outcome) => post({ type: "answer", call, ...outcome }),
  );
}

/** The worker's side: the shared tools as functions of this thread, and the calls waiting for their answers. */
export class SharedTools {
  private readonly waiting = new Map<
    number,
    { turn: number | undefined; resolve(value: unknown): void; reject(err: Error): void }
  >();
  /** The turn whose code runs: its calls are cancelled when it ends. */
  private readonly turn = new AsyncLocalStorage<number>();
  private nextCall = 1;
  readonly tools: Record<string, Tool>;

  constructor(
    info: Record<string, SharedToolInfo | null>,
    private readonly send: (message: FromWorker) => void,
  ) {
    this.tools = Object.fromEntries(
      Object.entries(info).map(([name, described]) => {
        const call = (...args: unknown[]) =>
          new Promise((resolve, reject) => {
            const id = this.nextCall++;
            this.waiting.set(id, { turn: this.turn.getStore(), resolve, reject });
            send({ type: "call", call: id, tool: name, args });
          });
        if (!described) return [name, call];
        const { definition, title } = described;
        return [
          name,
          defineTool({
            ...definition,
            description: definition.description as string,
            parameters: definition.parameters as ToolParameters,
            title,
            run: (args: unknown) => call(args),
          }),
        ];
      }),
    );
  }

  /** Runs a turn: the calls it makes and leaves running when it ends are cancelled. */
  async during<T>(turn: number, work: () => Promise<T>): Promise<T> {
    // Without shared tools no call is tied to its turn, and the storage is never entered: once
    // entered, Node before 24 runs async hooks on every promise the thread makes (several a step).
    if (Object.keys(this.tools).length === 0) return work();
    try {
      return await this.turn.run(turn, work);
    } finally {
      for (const [id, waiting] of this.waiting) {
        if (waiting.turn !== turn) continue;
        this.waiting.delete(id);
        waiting.reject(new Error("the turn ended before the tool answered"));
        this.send({ type: "cancel", call: id });
      }
    }
  }

  answered(message: Answer): void {
    settle(this.waiting, message.call, message);
  }
}
