// Our messages and tools in the AI SDK's provider specification (v3 and v4 alike).
import type { ToolChatMessage, ToolCompletionRequest, ToolDefinition } from "../types.js";
import type { FunctionTool, Message, Prompt, ToolChoice } from "./spec.js";

/** A call's arguments as the specification wants them (a value); text that is not JSON stays text. */
function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function toPrompt(messages: readonly ToolChatMessage[]): Prompt {
  // A tool result names its tool in the specification; ours carry only the call's id.
  const toolNames = new Map<string, string>();
  return messages.map((m): Message => {
    if (m.role === "tool") {
      return {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: m.toolCallId,
            toolName: toolNames.get(m.toolCallId) ?? "",
            output: { type: "text", value: m.content },
          },
        ],
      };
    }
    if ("toolCalls" in m) {
      for (const c of m.toolCalls) toolNames.set(c.id, c.name);
      return {
        role: "assistant",
        content: [
          ...(m.content ? [{ type: "text" as const, text: m.content }] : []),
          ...m.toolCalls.map((c) => ({
            type: "tool-call" as const,
            toolCallId: c.id,
            toolName: c.name,
            input: parsedArguments(c.arguments),
          })),
        ],
      };
    }
    if (m.role === "system") return { role: "system", content: m.content };
    return { role: m.role, content: [{ type: "text", text: m.content }] };
  });
}

const NO_ARGUMENTS = { type: "object", properties: {} };

export function toTool(tool: ToolDefinition): FunctionTool {
  const { name, description, parameters, strict } = tool;
  return {
    type: "function",
    name,
    inputSchema: parameters ?? NO_ARGUMENTS,
    ...(description !== undefined && { description }),
    ...(strict !== undefined && { strict }),
  };
}

export function toToolChoice(choice: ToolCompletionRequest["toolChoice"]): ToolChoice | undefined {
  if (choice === undefined) return undefined;
  return typeof choice === "object" ? { type: "tool", toolName: choice.name } : { type: choice };
}
