// A model whose calls are `chat {model}` spans of the node that asks, with the conventions'
// attributes: operation, provider, model, tokens used where the model reports them, and the
// messages only when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true.
import type { Attributes, Span } from "@opentelemetry/api";
import {
  isToolCallingModel,
  type ChatModel,
  type TokenUsage,
  type ToolCallingModel,
  type ToolChatMessage,
} from "../model/types.js";
import { ATTR, CAPTURE_CONTENT_ENV, OPERATION, providerName } from "./conventions.js";
import type { TurnSpans } from "./turn.js";

const recordUsage = (span: Span) => (usage: TokenUsage) => {
  if (usage.inputTokens !== undefined) span.setAttribute(ATTR.inputTokens, usage.inputTokens);
  if (usage.outputTokens !== undefined) span.setAttribute(ATTR.outputTokens, usage.outputTokens);
};

// The conventions' message shape: a role and its parts.
function inputMessages(messages: readonly ToolChatMessage[]): string {
  return JSON.stringify(
    messages.map((m) => {
      if (m.role === "tool")
        return { role: "tool", parts: [{ type: "tool_call_response", id: m.toolCallId, response: m.content }] };
      if ("toolCalls" in m) {
        return {
          role: "assistant",
          parts: [
            ...(m.content ? [{ type: "text", content: m.content }] : []),
            ...m.toolCalls.map((c) => ({ type: "tool_call", id: c.id, name: c.name, arguments: c.arguments })),
          ],
        };
      }
      return { role: m.role, parts: [{ type: "text", content: m.content }] };
    }),
  );
}

const outputMessage = (text: string, calls: { id: string; name: string; arguments: string }[] = []) =>
  JSON.stringify([
    {
      role: "assistant",
      parts: [...(text ? [{ type: "text", content: text }] : []), ...calls.map((c) => ({ type: "tool_call", ...c }))],
    },
  ]);

export function tracedModel(model: ChatModel, spans: TurnSpans): ChatModel {
  const name = model.model ?? "unknown";
  const capture = process.env[CAPTURE_CONTENT_ENV] === "true";
  const call = <T>(node: string, purpose: string, input: string | undefined, run: (span: Span) => Promise<T>) => {
    const attributes: Attributes = {
      [ATTR.operation]: OPERATION.chat,
      [ATTR.provider]: providerName(model.provider),
      [ATTR.requestModel]: name,
      [ATTR.node]: node,
      [ATTR.purpose]: purpose,
      ...(capture && input !== undefined && { [ATTR.inputMessages]: input }),
    };
    return spans.child(`${OPERATION.chat} ${name}`, attributes, run, spans.api.SpanKind.CLIENT);
  };
  const traced: ChatModel = {
    model: name,
    ...(model.provider !== undefined && { provider: model.provider }),
    complete: (req) =>
      call(req.node, req.purpose, capture ? inputMessages(req.messages) : undefined, async (span) => {
        const text = await model.complete({ ...req, onUsage: both(recordUsage(span), req.onUsage) });
        if (capture) span.setAttribute(ATTR.outputMessages, outputMessage(text));
        return text;
      }),
    choose: (req) =>
      call(
        req.node,
        "choose",
        capture ? JSON.stringify([{ role: "user", parts: [{ type: "text", content: req.prompt }] }]) : undefined,
        async (span) => {
          const index = await model.choose({ ...req, onUsage: both(recordUsage(span), req.onUsage) });
          if (capture) span.setAttribute(ATTR.outputMessages, outputMessage(req.choices[index] ?? String(index)));
          return index;
        },
      ),
  };
  if (!isToolCallingModel(model)) return traced;
  const withTools: ToolCallingModel = {
    ...traced,
    completeWithTools: (req) =>
      call(req.node, "tools", capture ? inputMessages(req.messages) : undefined, async (span) => {
        const answer = await model.completeWithTools({ ...req, onUsage: both(recordUsage(span), req.onUsage) });
        if (answer?.finishReason) span.setAttribute(ATTR.finishReasons, [answer.finishReason]);
        if (capture) span.setAttribute(ATTR.outputMessages, outputMessage(answer.text, answer.toolCalls));
        return answer;
      }),
  };
  return withTools;
}

function both<T>(a: (x: T) => void, b: ((x: T) => void) | undefined): (x: T) => void {
  return b
    ? (x) => {
        a(x);
        b(x);
      }
    : a;
}
