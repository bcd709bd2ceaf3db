/**
 * What the pure step works on and hands back. The step never waits for anything: when it needs
 * the outside world (a model, a tool) it returns an effect and a phase that says what to do
 * with the result, and the loop feeds that result back in as the next input.
 */
import type { GraphNode, JsonValue } from "@autograms/graph";
import type {
  ChatMessage,
  CompletionPurpose,
  JsonSchema,
  ToolCall,
  ToolChatMessage,
  ToolCompletion,
  ToolDefinition,
} from "../model/types.js";
import type { RunMemory } from "./stack.js";
import type { ActionCall, Decision, TraceEvent } from "../trace/events.js";
import type { SandboxLog, Writes } from "@autograms/sandbox";
import type { CodeToolCall } from "./code-tool-call.js";

/** The hooks of a custom action (see `defineAction`). */
export type ActionHook = "instruction" | "transition" | "output";

export interface RunState {
  mem: RunMemory;
  phase: Phase;
  /** The user's message until a chat or thought node consumes it. */
  pending: string | null;
  mode: "reply" | "call";
  /** Node steps taken in this run (a guard against graphs that loop forever). */
  steps: number;
  /** Model decisions made while leaving the current node, reported with the transition. */
  decisions: Decision[];
  /** Code has read the run's time (`Date.now()`): the trace has its `time` event. */
  timed?: boolean;
}

/** Where an evaluation's result goes. */
export type Continuation =
  | { kind: "code"; node: string }
  /** A node's `setup` ran: its action comes next. */
  | { kind: "setup"; node: string }
  | { kind: "args"; node: string }
  | { kind: "return"; node: string; target: string }
  | { kind: "condition"; node: string; target: string; candidates: string[]; index: number };

/** A node's native tool calls so far: the conversation with the model, and the calls still to run. */
export interface ToolRun {
  /** The node's messages, then each answer with tool calls and the calls' results. */
  messages: ToolChatMessage[];
  /** Rounds of tool calls the model has made at this node. */
  rounds: number;
  /** Calls of the latest round not run yet, in the model's order. */
  queue: ToolCall[];
}

export type GeneratingPhase = Extract<Phase, { kind: "generating" }>;

export type Phase =
  /** Enter the node: count the step, run its setup (if any), then its action. */
  | { kind: "enter"; node: string }
  /** The node's setup has run: run its action. */
  | { kind: "act"; node: string }
  /** The node's action is done; follow its transitions (asking about interjections first after a user message). */
  | {
      kind: "route";
      node: string;
      output: JsonValue;
      interject: boolean;
      /** A custom action's node only: its output hook has run, or its transition hook has chosen (null: the usual way). */
      hooked?: "output" | { target: string | null };
    }
  /** A custom action's hook is running (in the loop); `output` and `interject` are the route's, for the hooks run when leaving. */
  | { kind: "acting"; node: string; hook: ActionHook; instruction: string; output: JsonValue; interject: boolean }
  | {
      kind: "generating";
      node: string;
      instruction: string;
      messages: ChatMessage[];
      attempt: number;
      raw: string[];
      tools?: ToolRun;
    }
  /** Running the model's tool calls one by one (`running`: the call whose result is awaited). */
  | { kind: "calling_tools"; generating: GeneratingPhase & { tools: ToolRun }; running: ToolCall | null }
  | {
      kind: "choosing";
      node: string;
      purpose: "transition" | "interjection";
      prompt: string;
      choices: string[];
      output: JsonValue;
    }
  | { kind: "evaluating"; then: Continuation }
  /**
   * An `X.*` candidate's condition did not hold: test the next one. A step of its own, so that
   * a wildcard of thousands of candidates is a loop, not a recursion as deep as the list.
   */
  | { kind: "testing"; node: string; target: string; candidates: string[]; index: number }
  /** A chat node has replied; the next user message resumes here. */
  | { kind: "waiting"; node: string }
  | { kind: "finished"; value: JsonValue };

export type Effect =
  | {
      kind: "complete";
      node: string;
      purpose: CompletionPurpose;
      messages: ChatMessage[];
      /** The JSON Schema the answer must match (a thought's `schema`). */
      schema?: JsonSchema;
    }
  | { kind: "choose"; node: string; prompt: string; choices: string[] }
  /** A generation that may call the node's tools natively; `toolChoice` "none" once the rounds are used up. */
  | {
      kind: "complete_tools";
      node: string;
      purpose: CompletionPurpose;
      messages: ToolChatMessage[];
      tools: ToolDefinition[];
      toolChoice: "auto" | "none";
      /** The JSON Schema the final answer must match (a thought's `schema`). */
      schema?: JsonSchema;
    }
  /** Run one tool (by its graph name) on the arguments the model gave. */
  | { kind: "tool"; node: string; tool: string; args: JsonValue }
  /** Code that calls tools: the loop evaluates it with the tools bound (they may be asynchronous). */
  | { kind: "evaluate"; node: string; code: string; variables: Record<string, JsonValue> }
  /**
   * Run a custom action's hook (host code, like a tool) on the node's fields and instruction with
   * their variables filled in. Its model calls are made by the loop and come back with its value.
   */
  | {
      kind: "action";
      node: string;
      hook: ActionHook;
      fields: Record<string, JsonValue>;
      instruction: string;
      output: JsonValue;
    }
  /** The turn is over: the chat node's reply goes to the user. */
  | { kind: "reply"; node: string; text: string }
  /** `quit`, or the function `agent.call` ran has returned. */
  | { kind: "finish"; value: JsonValue };

export type StepInput =
  | { kind: "continue" }
  | { kind: "user"; text: string }
  | { kind: "completed"; text: string }
  | { kind: "chosen"; index: number }
  | {
      kind: "evaluated";
      value: JsonValue;
      writes: Writes | null;
      logs?: SandboxLog[];
      time?: number;
      calls?: CodeToolCall[];
    }
  | { kind: "tool_completed"; completion: ToolCompletion }
  /** A hook's value (copied as plain data), with the model calls it made, in order. */
  | { kind: "acted"; value: JsonValue; calls: ActionCall[] }
  | { kind: "tool_result"; ok: true; value: JsonValue }
  | { kind: "tool_result"; ok: false; error: string };

export interface StepResult {
  state: RunState;
  effect: Effect | null;
  event: TraceEvent | null;
  /** Events of the step reported before `event`: the run's time where code first read it, what code printed. */
  before?: TraceEvent[];
}

/**
 * An evaluation a handler needs before the step can go on (a setup, a code node, a call's
 * arguments, a `return <expr>`, a candidate's condition): `step` runs it, in the step or handed to
 * the loop, and resumes `then` with its value. Handlers return it instead of calling the
 * evaluator, whose continuations lead back into them.
 */
export interface EvaluationRequest {
  state: RunState;
  evaluate: { node: GraphNode; code: string; then: Continuation; what: string };
}

/** What a handler returns: the step's result, or an evaluation to run first. */
export type Handled = StepResult | EvaluationRequest;
