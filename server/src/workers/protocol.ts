/**
 * The messages between a turn pool (the HTTP process's main thread) and its worker threads, and
 * how a turn's progress and errors cross between them.
 */
import {
  AgentError,
  type AgentErrorCode,
  type Memory,
  type ModelSettings,
  type ReplyChunk,
  type ToolDefinition,
} from "@autograms/runtime";
import type { PackedTurn } from "@autograms/store";
import type { RelayedSpan, RelayTrace } from "@autograms/runtime/telemetry";
import type { TurnBudgets } from "./turn-budget.js";

/** What a worker thread is started with (`workerData`). */
export interface WorkerStart {
  /** Given to the script's agent factory (`serveTurns(makeAgent)`). */
  data: unknown;
  budgets: TurnBudgets;
  /** MiB of threads' memory the worker keeps from their last turns, about (WorkerOptions.keptMb). */
  keptMb: number;
  /**
   * The tools the pool's own thread holds for the workers (`WorkerOptions.tools`), by name: what a
   * model reads of each (`defineTool`'s definition and title), null for a plain function.
   */
  tools: Record<string, SharedToolInfo | null>;
}

export interface SharedToolInfo {
  definition: ToolDefinition;
  title: string;
}

/** A shared tool's call that failed, as the worker rethrows it. */
export interface CallError {
  name: string;
  message: string;
  code?: string;
}

export type ToWorker =
  /**
   * `kept`: the checksum of the thread's memory, which the worker holds from the thread's last turn
   * it played (memory is then null and not sent); a worker that does not hold it answers `missed`.
   */
  | {
      type: "play";
      id: number;
      threadId: string;
      text: string | null;
      memory: Memory | null;
      kept?: string;
      /** Present when the pool's thread exports traces: the turn's spans are sent back (`spans`). */
      trace?: RelayTrace;
      /** The build whose agent plays it (`make`); absent: the one the worker made as it started. */
      build?: number;
      wholeSteps?: true;
      modelSettings?: ModelSettings;
      /** The compute steps the run's stream still takes (PlayRequest.steps; absent: the whole bound). */
      computeStepsLeft?: number;
    }
  /** Makes the agent of another build from `data` (the script's factory again), for the turns that name it. */
  | { type: "make"; build: number; data: unknown }
  /** No turn names this build any more: its agent goes. */
  | { type: "drop"; build: number }
  /** Stops the turn (`reason`: the message of its `run-error`). */
  | { type: "stop"; id: number; reason: string }
  | { type: "ping" }
  /** The end of a worker's call of a shared tool: its value, or its error. */
  | { type: "answer"; call: number; value: unknown }
  | { type: "answer"; call: number; error: CallError }
  /** Calls one of the agent's tools outside any turn (the tool playground, routes/tools.ts). */
  | {
      type: "tool";
      id: number;
      /** The build whose agent has the tool (`make`); absent: the one the worker made as it started. */
      build?: number;
      name: string;
      /** As `Agent.callTool` takes them. */
      args: Record<string, unknown> | unknown[];
    }
  /** Stops that call: its signal is aborted (`reason`: why). */
  | { type: "stop-tool"; id: number; reason: string };

export type FromWorker =
  /** The agent is made; `about`: what the script's factory told of it (`MadeAgent.about`). */
  | { type: "ready"; about?: unknown }
  /** The agent factory failed: the pool cannot serve. */
  | { type: "unusable"; message: string }
  /** The agent of a build is made (`make`), or could not be (`message`). */
  | { type: "made"; build: number; about?: unknown }
  | { type: "unmade"; build: number; message: string }
  | { type: "pong" }
  /** A turn calls a shared tool (WorkerStart.tools): the pool's thread runs it and answers. */
  | { type: "call"; call: number; tool: string; args: unknown[] }
  /** The turn that made the call ended: nobody waits for its answer. */
  | { type: "cancel"; call: number }
  /** A turn's OpenTelemetry spans, for the pool's thread to export (runtime/src/telemetry/relay.ts). */
  | { type: "spans"; spans: RelayedSpan[] }
  /** The worker does not hold the memory a `play` named as kept: send it again with the memory. */
  | { type: "missed"; id: number }
  /** A turn's step events (bounded: see bounded-step.ts, unless asked whole) and text, in order, as they come. */
  | { type: "progress"; id: number; items: ProgressItems }
  | { type: "played"; id: number; result: PlayedResult }
  | { type: "failed"; id: number; error: FailedTurn; computeSteps?: number; omittedSteps?: number }
  /** The end of a `tool` call: the tool's value, or its error. */
  | { type: "tool-answer"; id: number; value: unknown }
  | { type: "tool-answer"; id: number; error: CallError };

export interface FailedTurn {
  code: string;
  message: string;
  /** The worker is to be replaced: it may keep what the turn took (TurnBudgetError.retire). */
  retire?: true;
  /** The runtime's AgentError: where in the agent it failed, to make it again on the other side. */
  at?: { detail: string; node?: string; file?: string; line?: number; column?: number };
}

/**
 * A turn's progress as it crosses to the server's thread. A step goes as its JSON text (the
 * player made it to measure the step) and its kind, two strings in a row: a string crosses
 * threads as one copy of its bytes, where the step's objects would be cloned one by one (and
 * reading `{ step, kind }` objects took the receiving thread about 6% of its time for a turn of
 * thousands of steps); the server's thread stores and streams that text as it is
 * (server/src/runs/step-text.ts), reading it back into objects only for a client that needs them
 * (AG-UI); the kind is all it reads of every step (the stream's bound, the UI stream's tool
 * calls). A piece of the reply goes as its object.
 */
export type ProgressItems = (string | { text: ReplyChunk })[];

export function addStepItem(items: ProgressItems, kind: string, json: string): void {
  items.push(kind, json);
}

export function addTextItem(items: ProgressItems, chunk: ReplyChunk): void {
  items.push({ text: chunk });
}

/** Reads `items` in order: each step (its text and kind) and each piece of the reply. */
export function readProgress(
  items: ProgressItems,
  onStep: (json: string, kind: string) => void,
  onText: (chunk: ReplyChunk) => void,
): void {
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (typeof item === "string") onStep(items[++i] as string, item);
    else onText(item.text);
  }
}

/**
 * What `Agent.reply` gave: what the server's thread reads (the reply, the memory) as values, and
 * what it only stores (the turn's whole trace and its delta) packed for the commit, as bytes that
 * a worker transfers (the trace of a turn of many steps is as many objects: cloning them, and
 * serializing them again for the commit, would keep the server's thread busy).
 */
export interface PlayedResult {
  reply: string | null;
  memory: Memory;
  done: boolean;
  /** The node whose output was the reply (`replyNode` of the trace; "" if none). */
  replyNode: string;
  packed: PackedTurn;
  /** Compute steps played in a worker (runs/bounded-steps.ts); those past the stream's bound, not sent. */
  computeSteps?: number;
  omittedSteps?: number;
}

/** An error as it crosses threads (its name, message and code: made again on the other side). */
export function callError(err: unknown): CallError {
  const e = err instanceof Error ? err : new Error(String(err));
  const code = (e as { code?: unknown }).code;
  return { name: e.name, message: e.message, ...(typeof code === "string" && { code }) };
}

/** A call sent to the other thread, waiting for its answer. */
export interface Waiting {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

/** Ends the call `id` of `waiting` with its answer (its error made again), if it still waits: whether it did. */
export function settle(
  waiting: Map<number, Waiting>,
  id: number,
  answer: { value: unknown } | { error: CallError },
): boolean {
  const call = waiting.get(id);
  if (!call) return false;
  waiting.delete(id);
  if (!("error" in answer)) call.resolve(answer.value);
  else {
    const { name, message, code } = answer.error;
    call.reject(Object.assign(new Error(message), { name, ...(code !== undefined && { code }) }));
  }
  return true;
}

/**
 * Runs a call the other thread made and posts its value, or its error. A value structured cloning
 * refuses (a function, a class instance with private fields) is posted as the error `unsent` makes
 * of the clone's failure; a thread that is gone gets nothing.
 */
export async function answer(
  work: () => Promise<unknown>,
  post: (outcome: { value: unknown } | { error: CallError }) => void,
  unsent = callError,
): Promise<void> {
  let outcome: { value: unknown } | { error: CallError };
  try {
    outcome = { value: await work() };
  } catch (err) {
    outcome = { error: callError(err) };
  }
  try {
    post(outcome);
  } catch (err) {
    try {
      post({ error: unsent(err) });
    } catch {
      // The other thread is gone: nobody waits for the answer.
    }
  }
}

/**
 * A call sent to a worker (a turn, a tool's call), which `signal` stops: aborted, it fails at once
 * with the signal's reason, and `stop` tells the worker, whose answer comes later and is dropped.
 */
export function stoppedBy<T>(signal: AbortSignal, answered: Promise<T>, stop: (reason: unknown) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      stop(signal.reason);
      reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    answered.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    if (signal.aborted) onAbort();
  });
}

/**
 * A turn's error as it crosses from a worker to the pool's thread: its code and message, and for
 * the runtime's AgentError where in the agent it failed, so the pool's thread gets an AgentError
 * again (a command shows it with its code frame, as it does for a turn played in its own thread).
 */
export function failedTurn(err: unknown): FailedTurn {
  const code = (err as { code?: unknown }).code;
  const failed: FailedTurn = {
    code: typeof code === "string" ? code : "internal",
    message: err instanceof Error ? err.message : String(err),
    // Only a worker that may keep what the turn took is replaced. A turn over its time or memory
    // budget leaves the buffers its trace grew through (each doubling leaves the one before:
    // hundreds of MiB for a loop stopped by the default budgets) to the worker's collector, which
    // V8 runs soon, as it counts them as external memory; replacing the worker to free them at
    // once would also drop what it keeps for the other threads warm there, and let one thread
    // restart workers at will.
    ...((err as { retire?: unknown }).retire === true && { retire: true as const }),
  };
  if (!(err instanceof AgentError)) return failed;
  const { detail, node, file, line, column } = err;
  return {
    ...failed,
    at: {
      detail,
      ...(node !== undefined && { node }),
      ...(file !== undefined && { file }),
      ...(line !== undefined && { line }),
      ...(column !== undefined && { column }),
    },
  };
}

/** The turn's error `failedTurn` was made from, made again in the pool's thread. */
export function turnError({ code, message, at }: FailedTurn): Error {
  if (!at) return Object.assign(new Error(message), { code });
  const loc =
    at.line === undefined
      ? undefined
      : { line: at.line, column: at.column ?? 1, endLine: at.line, endColumn: at.column ?? 1 };
  return new AgentError(code as AgentErrorCode, at.detail, {
    ...(at.node !== undefined && { node: at.node }),
    ...(at.file !== undefined && { file: at.file }),
    ...(loc && { loc }),
  });
}
