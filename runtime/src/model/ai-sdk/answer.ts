// A provider's answer (generated whole, or streamed in parts) as a ToolCompletion.
import type {
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
  SharedV3Warning,
} from "@ai-sdk/provider";
import type { TokenUsage, ToolCall, ToolCompletion } from "../types.js";

export interface Answer extends ToolCompletion {
  usage: TokenUsage;
  warnings: SharedV3Warning[];
}

// The specification's reasons in the words of Chat Completions, which the runtime reads.
const FINISH: Record<LanguageModelV3FinishReason["unified"], string> = {
  stop: "stop",
  length: "length",
  "content-filter": "content_filter",
  "tool-calls": "tool_calls",
  error: "error",
  other: "other",
};

const finishReason = (reason: LanguageModelV3FinishReason | undefined) =>
  reason ? (FINISH[reason.unified] ?? reason.raw ?? null) : null;

function usageOf(usage: LanguageModelV3Usage | undefined): TokenUsage {
  const input = usage?.inputTokens.total;
  const output = usage?.outputTokens.total;
  return { ...(input !== undefined && { inputTokens: input }), ...(output !== undefined && { outputTokens: output }) };
}

// A call the provider ran itself (its own web search, ...) is no call for the runtime to make.
const ownCall = (part: { providerExecuted?: boolean }) => part.providerExecuted === true;

export function fromContent(
  content: readonly LanguageModelV3Content[],
  reason: LanguageModelV3FinishReason,
  usage: LanguageModelV3Usage,
  warnings: SharedV3Warning[],
): Answer {
  let text = "";
  const toolCalls: ToolCall[] = [];
  for (const part of content) {
    if (part.type === "text") text += part.text;
    else if (part.type === "tool-call" && !ownCall(part))
      toolCalls.push({ id: part.toolCallId, name: part.toolName, arguments: part.input });
  }
  return { text, toolCalls, finishReason: finishReason(reason), usage: usageOf(usage), warnings };
}

/** A stream that reported an error in one of its parts. */
export class StreamFailed extends Error {
  override name = "StreamFailed";
  constructor(readonly error: unknown) {
    super(error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error));
  }
}

/** Collects a streamed answer: text deltas, whole tool calls, the finish part. */
export class StreamAssembler {
  private text = "";
  private readonly toolCalls: ToolCall[] = [];
  private reason: LanguageModelV3FinishReason | undefined;
  private usage: LanguageModelV3Usage | undefined;
  private warnings: SharedV3Warning[] = [];

  /** Takes one part; returns the text it adds. */
  add(part: LanguageModelV3StreamPart): string {
    switch (part.type) {
      case "text-delta":
        this.text += part.delta;
        return part.delta;
      case "tool-call":
        if (!ownCall(part)) this.toolCalls.push({ id: part.toolCallId, name: part.toolName, arguments: part.input });
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
