/** What the loop performs a run with: the step's environment and the outside world it reaches. */
import type { JsonValue } from "@autograms/graph";
import type { ChatModel, ModelSettings } from "../model/types.js";
import type { Evaluation, HostFunction, SandboxOptions } from "@autograms/sandbox";
import type { Env } from "../engine/env.js";
import type { CodeToolCall } from "../engine/code-tool-call.js";
import type { TraceSink } from "../trace/events.js";
import type { Frame } from "../memory/types.js";
import type { ActionDefinition } from "../language/actions.js";
import type { Deadline } from "./deadline.js";
import type { ReplyStream } from "./reply-stream.js";

/** A run about to enter `node`, with the frames (main first) it will run it in. Read, never modify. */
export interface PausePoint {
  node: string;
  stack: readonly Frame[];
}

/**
 * Called before every node a run enters; the run waits for the promise it returns: a debugger
 * holds the run there until its user resumes. A hook that returns nothing lets the run go on at
 * once, without a promise and a wait per node.
 */
export type PauseHook = (at: PausePoint) => Promise<void> | void;

/** Runs code handed over by the step: in this process (`evaluateAsync`) or in a sandbox pool's child. */
export type Evaluator = (
  code: string,
  variables: Record<string, JsonValue>,
  options: SandboxOptions,
) => Promise<Evaluation>;

export interface Performer {
  env: Env;
  model: ChatModel;
  /** The settings `model` was given for this run (`RunOptions.modelSettings`), recorded on its calls' events. */
  settings?: ModelSettings | undefined;
  /** The tools the model calls natively. */
  tools: Record<string, HostFunction>;
  /** The tools as the nodes' code gets them: in a traced run, each call recorded for `takeCodeCalls`. */
  codeTools: Record<string, HostFunction>;
  /** The calls of `codeTools` since it was last called (a traced run's only). */
  takeCodeCalls?: (() => CodeToolCall[] | undefined) | undefined;
  evaluate: Evaluator;
  /** Implementations of the graph's custom actions, by action name. */
  actions: Record<string, ActionDefinition<any, any>>;
  trace: TraceSink | undefined;
  pause?: PauseHook | undefined;
  deadline?: Deadline | undefined;
  /** Where the reply's text goes while it is written (`RunOptions.onText`). */
  replies?: ReplyStream | undefined;
}
