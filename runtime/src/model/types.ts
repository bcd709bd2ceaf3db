/** What the runtime asks of a language model (docs/models.md). */
import type { JsonValue } from "@autograms/graph";

/** A JSON Schema (draft 2020-12), as a graph carries it. */
export type JsonSchema = { [key: string]: JsonValue };

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export type CompletionPurpose = "chat" | "thought" | "user";

/** Tokens one call used, where the model reports them. */
export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
  /**
   * The name of the model that used them, which prices them: in a trace event, `ChatModel.model`
   * unless the report named another (a replay gives the recorded one back).
   */
  model?: string;
}

/** Told the tokens a call used, when the model knows (traces record them). */
export type UsageListener = (usage: TokenUsage) => void;

export interface CompletionRequest {
  messages: ChatMessage[];
  /** Name of the node that asks (for logs, traces and scripted test models). */
  node: string;
  purpose: CompletionPurpose;
  /**
   * Present when someone is waiting for the answer as it is written (the runtime sets it for the
   * generations of chat nodes that reply to the user, when the run has an `onText`). A model that
   * can stream calls it with each piece of its answer as it arrives, in order, before `complete()`
   * resolves; the pieces add up to the answer it resolves with. A model may ignore it: the
   * runtime then shows the whole answer at once.
   */
  onText?: (delta: string) => void;
  /**
   * Present when the answer must be JSON matching this JSON Schema (a thought node's `schema`).
   * A model with a structured-output feature asks its server for it; a model may ignore it (the
   * prompt asks for the JSON too, and the runtime checks the answer and asks again).
   */
  schema?: JsonSchema;
  /** Aborted when the turn's deadline passes: the model may stop working on the call. */
  signal?: AbortSignal;
  onUsage?: UsageListener;
}

export interface ChoiceRequest {
  /**
   * The classifier question. It may already list the answers as `formatChoices(choices)` writes
   * them (A. ... B. ..., or 1. 2. ... beyond 26 answers); a model appends that list when it is absent.
   */
  prompt: string;
  choices: string[];
  node: string;
  /** Aborted when the turn's deadline passes. */
  signal?: AbortSignal;
  onUsage?: UsageListener;
}

/**
 * A run's choice of model and sampling (`RunOptions.modelSettings`), over those the model was made
 * with; a trace records them on each event whose model calls they applied to.
 */
export interface ModelSettings {
  /** Another model of the same server or provider, by the name it knows. */
  model?: string;
  temperature?: number;
  /** Upper bound on the tokens of one completion. */
  maxTokens?: number;
}

export interface ChatModel {
  /** The model's name, as traces report it (`gen_ai.request.model`). */
  readonly model?: string;
  /** Who serves it ("openai", "anthropic.messages", ...), as traces report it (`gen_ai.provider.name`). */
  readonly provider?: string;
  /**
   * The same model with other settings, for one run (`RunOptions.modelSettings`). A model without
   * it takes no settings; one that answers from a recording returns itself.
   */
  withSettings?(settings: ModelSettings): ChatModel;
  /** The names of the models its server offers (an OpenAI-compatible server's `GET /models`). */
  listModels?(signal?: AbortSignal): Promise<string[]>;
  /** chat, chat_suffix, thought and simulated-user generations. */
  complete(req: CompletionRequest): Promise<string>;
  /** Multiple-choice transitions and interjections: the index of the chosen answer. */
  choose(req: ChoiceRequest): Promise<number>;
}

/** A tool the model may call natively (OpenAI function calling). */
export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters?: Record<string, unknown>;
  /** Ask the server to hold the arguments to the schema exactly (OpenAI structured outputs). */
  strict?: boolean;
}

/** A call the model asked for. */
export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them: JSON text, not parsed here since it may be malformed. */
  arguments: string;
}

/** A conversation with tool calls: chat messages, the model's calls, and each call's result. */
export type ToolChatMessage =
  | ChatMessage
  | { role: "assistant"; content: string | null; toolCalls: ToolCall[] }
  | { role: "tool"; toolCallId: string; content: string };

export interface ToolCompletionRequest {
  messages: ToolChatMessage[];
  tools: ToolDefinition[];
  node: string;
  /** "auto" (the default) lets the model choose; a name forces that tool. */
  toolChoice?: "auto" | "required" | "none" | { name: string };
  /**
   * Present when the final answer (the text of an answer that calls no tool) must be JSON matching
   * this JSON Schema (a thought node's `schema`). A model whose server takes a structured-output
   * format together with tools asks for it; a model may ignore it (the prompt asks for the JSON
   * too, and the runtime checks the answer and asks again).
   */
  schema?: JsonSchema;
  /**
   * Ask for the answer as a stream even without `onText` (OpenAIModel: `stream: true`, tool calls
   * then arrive in fragments).
   */
  stream?: boolean;
  /**
   * Pieces of the answer's text as they arrive (as `CompletionRequest.onText`); the text of an
   * answer that also calls tools comes this way too, so it is not necessarily the final answer.
   */
  onText?: (delta: string) => void;
  /** Aborted when the turn's deadline passes. */
  signal?: AbortSignal;
  onUsage?: UsageListener;
}

export interface ToolCompletion {
  /** The model's text (empty when it only called tools). */
  text: string;
  toolCalls: ToolCall[];
  /** Why the model stopped ("stop", "tool_calls", "length", ...), when the server says. */
  finishReason: string | null;
}

/** A ChatModel that can also call tools natively. */
export interface ToolCallingModel extends ChatModel {
  completeWithTools(req: ToolCompletionRequest): Promise<ToolCompletion>;
}

export function isToolCallingModel(model: ChatModel): model is ToolCallingModel {
  return typeof (model as Partial<ToolCallingModel>).completeWithTools === "function";
}
