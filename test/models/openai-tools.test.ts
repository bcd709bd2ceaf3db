import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  isToolCallingModel,
  ModelError,
  OpenAIModel,
  type ToolChatMessage,
  type ToolDefinition,
} from "../../runtime/src/model/index.js";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";

let server: OpenAIServer;
beforeEach(async () => {
  server = await startOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

const model = (timeout?: number) =>
  new OpenAIModel({
    model: "test-model",
    baseURL: server.baseURL,
    apiKey: "k",
    maxRetries: 0,
    ...(timeout && { timeout }),
  });

const calculator: ToolDefinition = {
  name: "calculator",
  description: "Evaluates arithmetic.",
  parameters: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] },
};
const lookup: ToolDefinition = {
  name: "lookup",
  parameters: { type: "object", properties: { key: { type: "string" } } },
  strict: true,
};
const question: ToolChatMessage[] = [{ role: "user", content: "What is 6*7, and the capital of France?" }];

describe("completeWithTools", () => {
  it("is offered by OpenAIModel", () => {
    expect(isToolCallingModel(model())).toBe(true);
  });

  it("sends the tools and returns the calls the model makes", async () => {
    server.enqueue({
      toolCalls: [
        { id: "call_a", name: "calculator", arguments: { expression: "6*7" } },
        { id: "call_b", name: "lookup", arguments: '{"key": "France"}' },
      ],
    });
    const answer = await model().completeWithTools({
      node: "solve",
      messages: question,
      tools: [calculator, lookup],
      toolChoice: "required",
    });
    expect(answer).toEqual({
      text: "",
      finishReason: "tool_calls",
      toolCalls: [
        { id: "call_a", name: "calculator", arguments: '{"expression":"6*7"}' },
        { id: "call_b", name: "lookup", arguments: '{"key": "France"}' },
      ],
    });
    const body = server.completions[0]!.body;
    expect(body.tools).toEqual([
      {
        type: "function",
        function: { name: "calculator", description: "Evaluates arithmetic.", parameters: calculator.parameters },
      },
      { type: "function", function: { name: "lookup", parameters: lookup.parameters, strict: true } },
    ]);
    expect(body.tool_choice).toBe("required");
  });

  it("puts earlier calls and their results on the wire as the API wants them", async () => {
    server.enqueue({ text: "42, and Paris." });
    const messages: ToolChatMessage[] = [
      ...question,
      {
        role: "assistant",
        content: null,
        toolCalls: [{ id: "call_a", name: "calculator", arguments: '{"expression":"6*7"}' }],
      },
      { role: "tool", toolCallId: "call_a", content: "42" },
    ];
    const answer = await model().completeWithTools({
      node: "solve",
      messages,
      tools: [calculator],
      toolChoice: { name: "calculator" },
    });
    expect(answer).toEqual({ text: "42, and Paris.", toolCalls: [], finishReason: "stop" });
    const body = server.completions[0]!.body;
    expect(body.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "calculator", arguments: '{"expression":"6*7"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_a", content: "42" },
    ]);
    expect(body.tool_choice).toEqual({ type: "function", function: { name: "calculator" } });
  });

  it.each([
    ["one after the other", false, 3],
    ["interleaved", true, 1],
  ])("assembles streamed tool-call fragments sent %s", async (_, interleave, argumentChunk) => {
    const calls = [
      { id: "call_a", name: "calculator", arguments: '{"expression": "6*7 — «ünïcode» 😀"}' },
      { id: "call_b", name: "lookup", arguments: '{"key": "France"}' },
    ];
    server.enqueue({ toolCalls: calls, text: "Let me check.", interleave, argumentChunk });
    const texts: string[] = [];
    const answer = await model().completeWithTools({
      node: "solve",
      messages: question,
      tools: [calculator, lookup],
      stream: true,
      onText: (t) => texts.push(t),
    });
    expect(answer).toEqual({ text: "Let me check.", toolCalls: calls, finishReason: "tool_calls" });
    expect(texts.join("")).toBe("Let me check.");
    expect(texts.length).toBeGreaterThan(1);
    expect(server.completions[0]!.body.stream).toBe(true);
  });

  it("numbers calls whose stream gives them no id", async () => {
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    server.enqueue({
      sse: [
        chunk({ role: "assistant", tool_calls: [{ index: 0, function: { name: "calc", arguments: '{"a"' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: ": 1}" } }] }),
        chunk({}, "tool_calls"),
        "data: [DONE]\n\n",
      ],
    });
    const answer = await model().completeWithTools({
      node: "n",
      messages: question,
      tools: [calculator],
      stream: true,
    });
    expect(answer.toolCalls).toEqual([{ id: "call_0", name: "calc", arguments: '{"a": 1}' }]);
  });

  it("reports a stream that stalls", async () => {
    server.enqueue({ stallAfter: 3, reply: { text: "This will never finish." } });
    // The first events come at once, then nothing: 1.5 s of silence is a stall even on a busy machine.
    const err = await model(1_500)
      .completeWithTools({ node: "slow", messages: question, tools: [], stream: true })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).message).toBe("node 'slow': model call failed: the stream stalled: no data for 1500 ms");
    expect((err as ModelError).failure).toBe("timeout");
  });

  it("reports a malformed event and an error event in a stream", async () => {
    server.enqueue(
      { sse: ['data: {"choices": [\n\n'] },
      { sse: ['data: {"error": {"message": "model crashed"}}\n\n'] },
    );
    const stream = () => model().completeWithTools({ node: "n", messages: question, tools: [], stream: true });
    await expect(stream()).rejects.toThrow(/^node 'n': model call failed: the server's answer is not valid JSON: /);
    await expect(stream()).rejects.toThrow("node 'n': model call failed: the server reported an error: model crashed");
  });
});
