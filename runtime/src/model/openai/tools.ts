// Native tool calls: our message and tool types to and from the Chat Completions wire format, and
// the assembly of streamed answers (text, and tool calls that arrive in fragments).
import type {
  ChatCompletionChunk,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";
import type {
  TokenUsage,
  ToolCall,
  ToolChatMessage,
  ToolCompletion,
  ToolCompletionRequest,
  ToolDefinition,
} from "../types.js";

export function toWireMessages(messages: readonly ToolChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((m): ChatCompletionMessageParam => {
    if (m.role === "tool") return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
    if ("toolCalls" in m) {
      return {
        role: "assistant",
        content: m.content,
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: c.arguments },
        })),
      };
    }
    return { role: m.role, content: m.content };
  });
}

export function toWireTool(tool: ToolDefinition): ChatCompletionTool {
  const { name, description, parameters, strict } = tool;
  return {
    type: "function",
    function: {
      name,
      ...(description !== undefined && { description }),
      ...(parameters && { parameters }),
      ...(strict !== undefined && { strict }),
    },
  };
}

export function toWireToolChoice(
  choice: ToolCompletionRequest["toolChoice"],
): ChatCompletionToolChoiceOption | undefined {
  return typeof choice === "object" ? { type: "function", function: { name: choice.name } } : choice;
}

export function fromWireMessage(message: ChatCompletionMessage, finishReason: string | null): ToolCompletion {
  const toolCalls = (message.tool_calls ?? []).flatMap((c) =>
    c.type === "function" ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
  );
  return { text: message.content ?? "", toolCalls, finishReason };
}

/**
 * Collects a streamed answer. Each tool call comes in fragments tagged with its index: the first
 * carries its id and name, the rest pieces of its arguments; calls made in parallel interleave.
 */
export class StreamAssembler {
  /** What the model said instead of answering, when it refused. */
  refusal = "";
  private text = "";
  private finishReason: string | null = null;
  private readonly calls = new Map<number, ToolCall>();

  /** The tokens the server reports in the stream's last chunk (asked for with `stream_options`). */
  usage: TokenUsage | undefined;

  /** Takes one chunk; returns the text it adds. */
  add(chunk: ChatCompletionChunk): string {
    if (chunk.usage) this.usage = usageOf(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return "";
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    for (const fragment of choice.delta?.tool_calls ?? []) {
      const index = fragment.index ?? 0;
      const call = this.calls.get(index) ?? { id: "", name: "", arguments: "" };
      if (fragment.id) call.id = fragment.id;
      if (fragment.function?.name) call.name += fragment.function.name;
      if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
      this.calls.set(index, call);
    }
    if (choice.delta?.refusal) this.refusal += choice.delta.refusal;
    const delta = choice.delta?.content ?? "";
    this.text += delta;
    return delta;
  }

  result(): ToolCompletion {
    const toolCalls = [...this.calls]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({ ...c, id: c.id || `call_${index}` }));
    return { text: this.text, toolCalls, finishReason: this.finishReason };
  }
}

/** The tokens a completion (or a stream's usage chunk) reports, in the runtime's terms. */
export const usageOf = (usage: CompletionUsage): TokenUsage => ({
  inputTokens: usage.prompt_tokens,
  outputTokens: usage.completion_tokens,
});
