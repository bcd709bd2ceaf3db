// A provider's answer (generated whole, or streamed in parts) as a ToolCompletion.
import type { TokenUsage, ToolCall, ToolCompletion } from "../types.js";
import type { FinishReason, GenerateResult, Part, TextPart, ToolCallPart, Usage, Warning } from "./spec.js";

export interface Answer extends ToolCompletion {
  usage: TokenUsage;
  warnings: readonly Warning[];
}

// The specification's reasons in the words of Chat Completions, which the runtime reads.
const FINISH: Readonly<Record<string, string>> = {
  stop: "stop",
  length: "length",
  "content-filter": "content_filter",
  "tool-calls": "tool_calls",
  error: "error",
  other: "other",
};

/** The stream ended without the provider saying the answer was complete (v4's `interrupted`). */
export class AnswerInterrupted extends Error {
  override name = "AnswerInterrupted";
  constructor() {
    super("the answer ended before the provider said it was complete");
  }
}

function finishReason(reason: FinishReason | undefined): string | null {
  if (reason?.unified === "interrupted") throw new AnswerInterrupted();
  return reason ? (FINISH[reason.unified] ?? reason.raw ?? null) : null;
}

function usageOf(usage: Usage | undefined): TokenUsage {
  const input = usage?.inputTokens.total;
  const output = usage?.outputTokens.total;
  return { ...(input !== undefined && { inputTokens: input }), ...(output !== undefined && { outputTokens: output }) };
}

const isText = (part: Part): part is TextPart => part.type === "text";

// A call the provider ran itself (its own web search, ...) is no call for the runtime to make.
const isCallToMake = (part: Part): part is ToolCallPart =>
  part.type === "tool-call" && (part as ToolCallPart).providerExecuted !== true;

const toToolCall = (part: ToolCallPart): ToolCall => ({
  id: part.toolCallId,
  name: part.toolName,
  arguments: part.input,
});

/** A generated answer; `json` when a JSON answer was asked for, which v4 may give apart from the other text. */
export function fromResult(result: GenerateResult, json: boolean): Answer {
  const text =
    json && result.structuredOutputText !== undefined
      ? result.structuredOutputText
      : result.content
          .filter(isText)
          .map((p) => p.text)
          .join("");
  return {
    text,
    toolCalls: result.content.filter(isCallToMake).map(toToolCall),
    finishReason: finishReason(result.finishReason),
    usage: usageOf(result.usage),
    warnings: result.warnings,
  };
}

/** A stream that reported an error in one of its parts. */
export class StreamFailed extends Error {
  override name = "StreamFailed";
  constructor(readonly error: unknown) {
    super(error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error));
  }
}

// The stream parts read; every other kind (reasoning, sources, v4's pings, ...) is passed over.
type ReadPart =
  | { type: "text-delta"; delta: string }
  | ToolCallPart
  | { type: "stream-start"; warnings: readonly Warning[] }
  | { type: "finish"; finishReason: FinishReason; usage: Usage }
  | { type: "error"; error: unknown };

/** Collects a streamed answer: text deltas, whole tool calls, the finish part. */
export class StreamAssembler {
  private text = "";
  private readonly toolCalls: ToolCall[] = [];
  private reason: FinishReason | undefined;
  private usage: Usage | undefined;
  private warnings: readonly Warning[] = [];

  /** Takes one part; returns the text it adds. */
  add(streamed: Part): string {
    const part = streamed as ReadPart;
    switch (part.type) {
      case "text-delta":
        this.text += part.delta;
        return part.delta;
      case "tool-call":
        if (isCallToMake(part)) this.toolCalls.push(toToolCall(part));
        return "";
      case "stream-start":
        this.warnings = part.warnings;
        return "";
      case "finish":
        this.reason = part.finishReason;
        this.usage = part.usage;
        return "";
      case "error":
        throw new StreamFailed(part.error);
      default:
        return "";
    }
  }

  result(): Answer {
    return {
      text: this.text,
      toolCalls: this.toolCalls,
      finishReason: finishReason(this.reason),
      usage: usageOf(this.usage),
      warnings: this.warnings,
    };
  }
}
