// The part of the AI SDK's provider specification that AiSdkModel speaks, written here rather than
// imported from @ai-sdk/provider: its versions 3 (LanguageModelV3, the providers made for ai 6) and
// 4 (LanguageModelV4, ai 7) agree on it, a language model of either is one of these, and the
// published types need no @ai-sdk/provider of the one line or the other.
//
// What is sent is written exactly (each message and tool a subset of both versions' own); what comes
// back is read loosely (any part with a `type`), since each version adds parts of its own that the
// runtime passes over.
import type { JsonValue } from "@autograms/graph";

/** The versions AiSdkModel reads. */
export const READ_VERSIONS = ["v3", "v4"] as const;

export type JsonObject = { [key: string]: JsonValue };

export type ProviderOptions = Record<string, JsonObject>;

export type Message =
  | { role: "system"; content: string }
  | { role: "user"; content: { type: "text"; text: string }[] }
  | {
      role: "assistant";
      content: (
        | { type: "text"; text: string }
        | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown }
      )[];
    }
  | {
      role: "tool";
      content: { type: "tool-result"; toolCallId: string; toolName: string; output: { type: "text"; value: string } }[];
    };

export type Prompt = Message[];

export interface FunctionTool {
  type: "function";
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  strict?: boolean;
}

export type ToolChoice = { type: "auto" | "none" | "required" } | { type: "tool"; toolName: string };

export interface CallOptions {
  prompt: Prompt;
  maxOutputTokens?: number;
  temperature?: number;
  responseFormat?: { type: "json"; schema?: Record<string, unknown>; name?: string };
  tools?: FunctionTool[];
  toolChoice?: ToolChoice;
  abortSignal?: AbortSignal;
  headers?: Record<string, string>;
  providerOptions?: ProviderOptions;
}

/** v3's reasons, and v4's `interrupted`: the stream ended without saying it was complete. */
export interface FinishReason {
  unified: string;
  raw: string | undefined;
}

export interface Usage {
  inputTokens: { total: number | undefined };
  outputTokens: { total: number | undefined };
}

export interface Warning {
  type: string;
  feature?: string;
}

/** A part of an answer: text, a tool call, or one of the kinds the runtime passes over. */
export interface Part {
  type: string;
}

export interface TextPart extends Part {
  type: "text";
  text: string;
}

export interface ToolCallPart extends Part {
  type: "tool-call";
  toolCallId: string;
  toolName: string;
  /** The arguments as JSON text. */
  input: string;
  /** The provider ran it itself (its own web search, ...). */
  providerExecuted?: boolean;
}

export interface GenerateResult {
  content: readonly Part[];
  finishReason: FinishReason;
  usage: Usage;
  warnings: readonly Warning[];
  /** v4: the text to read as the JSON answer when it is not all the text parts together. */
  structuredOutputText?: string;
}

export interface StreamResult {
  stream: ReadableStream<Part>;
}

/**
 * A language model of the AI SDK's provider specification, v3 or v4: what `openai("gpt-4o")`,
 * `anthropic("claude-sonnet-4-5")` and the like return.
 */
export interface LanguageModel {
  readonly specificationVersion: (typeof READ_VERSIONS)[number];
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: CallOptions): PromiseLike<GenerateResult>;
  doStream(options: CallOptions): PromiseLike<StreamResult>;
}
