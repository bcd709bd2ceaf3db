/**
 * What the runtime reports, one event per step, to the `trace` sink of `reply()` / `call()`.
 * Debugging and replay build on these: every model decision carries its prompt, its choices and
 * the answer, every generation its messages and raw answers, every step the variables it wrote.
 */
import type { Action, BaseAction, JsonValue, Loc, TraceKindName } from "@autograms/graph";
import { familyOf } from "@autograms/graph";
import type { ChatMessage, CompletionPurpose, ModelSettings, TokenUsage, ToolCall } from "../model/types.js";
import type { LogLevel } from "@autograms/sandbox";

export interface VariableChange {
  name: string;
  /** Absent when the variable did not exist in the visible scopes before. */
  before?: JsonValue;
  after: JsonValue;
}

/** One multiple-choice question put to the model. */
export interface Decision {
  purpose: "transition" | "interjection";
  prompt: string;
  choices: string[];
  chosen: number;
}

/** A model call a custom action's hook made, with the answer it got. */
export type ActionCall =
  | { kind: "complete"; purpose: CompletionPurpose; messages: ChatMessage[]; answer: string }
  | { kind: "choose"; prompt: string; choices: string[]; answer: number };

interface Base {
  node: string;
  loc: Loc | null;
  /** The node's action: a built-in one, or the name of one of the graph's custom actions. */
  action: Action | (string & {});
  /** Custom actions only: the built-in behaviour the node has where its action gives no hook. */
  base?: BaseAction;
  /** Names of the running functions, `main` first. */
  stack: string[];
  /** Variables this step wrote in the current scope. */
  changes: VariableChange[];
  /**
   * Milliseconds the step waited for what it reports, to 0.1 ms: a `tool_call`'s for the tool; a
   * `generate`'s (every attempt), a decision's (`transition`, `quit`, `return`) or a `custom`
   * hook's for the model. Absent where nothing was waited for.
   */
  ms?: number;
  /**
   * The tokens of the model calls `ms` counts (every attempt), as the model reported them. Absent
   * when it reported none (the offline and scripted models, a server that does not say).
   */
  usage?: TokenUsage;
  /** The run's model settings (`RunOptions.modelSettings`), on the events of the model calls they applied to. */
  settings?: ModelSettings;
}

/**
 * Its kinds are the vocabulary's (TRACE_KINDS in @autograms/graph), no more and no fewer: a kind
 * written here and not there fails to compile here, and one declared there and not written here
 * makes TraceEvent `never` (every use of it fails).
 */
type KindsDeclared<E extends { kind: TraceKindName }> = [TraceKindName] extends [E["kind"]] ? E : never;

export type TraceEvent = KindsDeclared<
  /** A user message arrived at the chat node the conversation was waiting at. */
  | (Base & { kind: "user"; text: string })
  /** chat, chat_suffix, thought, thought_qa: one model generation (with any regenerations). */
  | (Base & {
      kind: "generate";
      purpose: "chat" | "thought";
      messages: ChatMessage[];
      /** Every raw answer, in order; more than one when a reply had to be generated again. */
      raw: string[];
      output: JsonValue;
      /** chat_suffix only: how the reply came to end with the required text. */
      suffix?: "generated" | "completed" | "fallback";
      /**
       * Nodes that offer tools only: the model's answers that called tools, in order, before the
       * text answers in `raw` (each call's result is its `tool_call` event).
       */
      toolAnswers?: { text: string; toolCalls: ToolCall[] }[];
    })
  /** chat_exact, thought_exact. */
  | (Base & { kind: "exact"; output: string })
  | (Base & { kind: "code"; code: string; value: JsonValue })
  /** A node's `setup` code ran on entering it, before its action (the action's event follows). */
  | (Base & { kind: "setup"; code: string })
  /**
   * The node's code printed a line (`console.log(...)`, or `info`, `debug`, `warn`, `error`: the
   * level), formatted as Node's console does. A debug print only: it changes nothing. Reported
   * before the event of the step whose code printed it.
   */
  | (Base & { kind: "log"; level: LogLevel; text: string })
  /**
   * The run's time, which `Date.now()` returns (milliseconds since 1970; one value for the whole
   * reply() or call()), reported where code first read it, before that step's event. A replay
   * gives the recorded value back.
   */
  | (Base & { kind: "time"; time: number })
  | (Base & { kind: "prompt"; text: string })
  /** A transition node's (empty) action. */
  | (Base & { kind: "pass" })
  | (Base & { kind: "call"; function: string; args: JsonValue[] })
  /** A call skipped because a `required_revisit` state was never visited. */
  | (Base & { kind: "skip_call"; function: string; unvisited: string[] })
  /** `to` is the calling node, or "" when the function `agent.call()` ran has returned. */
  | (Base & { kind: "return"; function: string; value: JsonValue; to: string; decisions: Decision[] })
  | (Base & {
      kind: "transition";
      /** The transition as written (`X.*`, `$var`, a node name, …). */
      target: string;
      /** The node it led to. */
      to: string;
      /** How `to` was found from `target`. */
      resolved: "name" | "variable" | "condition" | "history" | "visit";
      decisions: Decision[];
    })
  | (Base & { kind: "quit"; decisions: Decision[] })
  /**
   * A custom action's hook ran: the model calls it made (for replay), and what it gave: the
   * instruction's `reply` / `thought` / `output`, the output hook's `output`, the transition
   * hook's `target` (null: the usual transition follows).
   */
  | (Base & {
      kind: "custom";
      hook: "instruction" | "transition" | "output";
      calls: ActionCall[];
      reply?: string;
      thought?: string;
      /** The user's message the result took as read without a turn (`consumeReply`). */
      consumed?: string;
      output?: JsonValue;
      target?: string | null;
      /**
       * The instruction hook only: the rest of what it returned besides `reply` and `thought`
       * (`output`, `assign`, `setPrompt`, `retain`, ...), when there was any. With them, the
       * event holds the hook's whole result, which a replay gives back instead of running it.
       */
      result?: Record<string, JsonValue>;
    })
  /**
   * A tool call and what it gave back: the tool's `result`, or an `error`. Either a native call the
   * model made at a chat or thought node that offers tools (`round` 1 and up; the error, an unknown
   * tool, malformed arguments or the tool threw, is what the model sees as `Error: ...`), or a call
   * the node's code made (`round` 0, `id` "", reported before the step's own event; `arguments` is
   * the JSON text of the argument list; a call through `tryTool` is the tool's own; the error is
   * the message of what the tool threw).
   */
  | (Base & {
      kind: "tool_call";
      /** The tool's name as the model called it. */
      tool: string;
      /** The call's id, which the result message answers. */
      id: string;
      /** The arguments as the model wrote them (JSON text, possibly malformed). */
      arguments: string;
      /** 1 for the model's first round of calls at this node, 2 for the next, ...; 0 for a call from code. */
      round: number;
      result?: JsonValue;
      error?: string;
    })
>;

export type TraceSink = (event: TraceEvent) => void;

/** The agent's reply, when this event is the one that ends a turn with it. */
export function replyOf(e: TraceEvent): string | undefined {
  if (e.kind === "custom") return e.reply;
  if (e.kind !== "generate" && e.kind !== "exact") return undefined;
  return familyOf(e.base ?? e.action) === "chat" && typeof e.output === "string" ? e.output : undefined;
}

/** The step whose output was the turn's reply: the last one that gave one (a stored trace's too). */
export function replyStep<E>(trace: readonly E[]): E | undefined {
  for (let i = trace.length - 1; i >= 0; i--)
    if (replyOf(trace[i] as unknown as TraceEvent) !== undefined) return trace[i];
  return undefined;
}
