// AiSdkModel over a real AI SDK provider (@ai-sdk/openai-compatible) talking HTTP to the local
// OpenAI-compatible server: streaming, tool calls, errors, deadlines, as a user would run it.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AiSdkModel, type AiSdkModelOptions } from "@autograms/runtime/ai-sdk";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";

let server: OpenAIServer;
beforeEach(async () => {
  server = await startOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

const model = (options: AiSdkModelOptions = {}, supportsStructuredOutputs = true) =>
  new AiSdkModel(
    createOpenAICompatible({ name: "local", baseURL: server.baseURL, apiKey: "k", supportsStructuredOutputs })(
      "test-model",
    ),
    options,
  );

describe("AiSdkModel with @ai-sdk/openai-compatible", () => {
  it("completes, the request on the wire as Chat Completions", async () => {
    server.enqueue({ text: "Hello!" });
    expect(
      await model({ temperature: 0.5 }).complete({
        node: "greet",
        purpose: "chat",
        messages: [
          { role: "system", content: "Be kind." },
          { role: "user", content: "hi" },
        ],
      }),
    ).toBe("Hello!");
    expect(server.completions[0]!.body).toMatchObject({
      model: "test-model",
      temperature: 0.5,
      messages: [
        { role: "system", content: "Be kind." },
        { role: "user", content: "hi" },
      ],
    });
    expect(server.completions[0]!.headers.authorization).toBe("Bearer k");
  });

  it("streams the pieces as the server sends them", async () => {
    server.enqueue({ text: "Hello there!", chunks: ["Hel", "lo the", "re!"] });
    const pieces: string[] = [];
    expect(
      await model().complete({
        node: "greet",
        purpose: "chat",
        messages: [{ role: "user", content: "hi" }],
        onText: (d) => pieces.push(d),
      }),
    ).toBe("Hello there!");
    expect(pieces).toEqual(["Hel", "lo the", "re!"]);
    expect(server.completions[0]!.body.stream).toBe(true);
  });

  it.each([
    ["plain", false],
    ["streamed", true],
  ])("returns tool calls (%s), and sends their results back", async (_, stream) => {
    server.enqueue({
      toolCalls: [
        { id: "call_1", name: "price_of", arguments: { item: "tea" } },
        { id: "call_2", name: "price_of", arguments: { item: "cake" } },
      ],
      interleave: true,
    });
    const tools = [
      {
        name: "price_of",
        description: "Price of an item.",
        parameters: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
      },
    ];
    const m = model();
    const first = await m.completeWithTools({
      node: "shop",
      messages: [{ role: "user", content: "tea and cake?" }],
      tools,
      stream,
    });
    expect(first.toolCalls).toEqual([
      { id: "call_1", name: "price_of", arguments: '{"item":"tea"}' },
      { id: "call_2", name: "price_of", arguments: '{"item":"cake"}' },
    ]);
    expect(first.finishReason).toBe("tool_calls");
    expect(server.completions[0]!.body.tools).toEqual([
      {
        type: "function",
        function: { name: "price_of", description: "Price of an item.", parameters: tools[0]!.parameters },
      },
    ]);
    server.enqueue({ text: "Tea is 2, cake 3." });
    const second = await m.completeWithTools({
      node: "shop",
      tools,
      messages: [
        { role: "user", content: "tea and cake?" },
        { role: "assistant", content: null, toolCalls: first.toolCalls },
        { role: "tool", toolCallId: "call_1", content: "2" },
        { role: "tool", toolCallId: "call_2", content: "3" },
      ],
    });
    expect(second).toEqual({ text: "Tea is 2, cake 3.", toolCalls: [], finishReason: "stop" });
    expect(server.completions[1]!.body.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "price_of", arguments: '{"item":"tea"}' } },
          { id: "call_2", type: "function", function: { name: "price_of", arguments: '{"item":"cake"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "2" },
      { role: "tool", tool_call_id: "call_2", content: "3" },
    ]);
  });

  it("chooses through the server's JSON schema output, or reads the label where there is none", async () => {
    server.enqueue({ choice: "C" }, { choice: "B" });
    const ask = (m: AiSdkModel) => m.choose({ node: "route", prompt: "Which?", choices: ["a", "b", "c"] });
    expect(await ask(model())).toBe(2);
    expect(server.completions[0]!.body.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { name: "choice", schema: { properties: { answer: { enum: ["A", "B", "C"] } } } },
    });
    expect(await ask(model({}, false))).toBe(1);
    expect(server.completions[1]!.body.response_format).toEqual({ type: "json_object" });
  });

  it("retries a busy server, then fails with its words", async () => {
    server.enqueue({ status: 503, message: "overloaded" }, { text: "ok" });
    expect(await model().complete({ node: "n", purpose: "chat", messages: [] })).toBe("ok");
    server.enqueue({ status: 500, message: "boom" }, { status: 500, message: "boom" });
    await expect(model({ maxRetries: 1 }).complete({ node: "n", purpose: "chat", messages: [] })).rejects.toThrow(
      "node 'n': model call failed: the server answered 500 Internal Server Error: boom (2 attempts)",
    );
    server.enqueue({ status: 401, message: "bad key" });
    await expect(model().complete({ node: "n", purpose: "chat", messages: [] })).rejects.toThrow(
      "node 'n': model call failed: the server answered 401 Unauthorized: bad key",
    );
    expect(server.pending).toBe(0);
  });

  it("says when the server cannot be reached", async () => {
    const { baseURL } = server;
    await server.close();
    const m = new AiSdkModel(createOpenAICompatible({ name: "local", baseURL, apiKey: "k" })("test-model"), {
      maxRetries: 0,
    });
    await expect(m.complete({ node: "n", purpose: "chat", messages: [] })).rejects.toThrow(
      `node 'n': model call failed: cannot reach ${baseURL}/chat/completions: connect ECONNREFUSED`,
    );
    server = await startOpenAIServer();
  });

  it("fails a stream the server breaks off after its text began, without sending it again", async () => {
    server.enqueue({ errorAfter: 2, reply: { text: "Hello there, friend" }, message: "the model crashed" });
    const pieces: string[] = [];
    await expect(
      model().complete({ node: "n", purpose: "chat", messages: [], onText: (d) => pieces.push(d) }),
    ).rejects.toThrow("model call failed: the server reported an error");
    expect(pieces).toEqual(["Hello"]);
    expect(server.completions).toHaveLength(1);
  });

  it("abandons the request when the turn's deadline passes", async () => {
    server.enqueue({ delay: 10_000, then: { text: "too late" } });
    const started = Date.now();
    await expect(
      model().complete({ node: "n", purpose: "chat", messages: [], signal: AbortSignal.timeout(100) }),
    ).rejects.toThrow("node 'n': model call failed: the call was abandoned: its caller's deadline passed");
    expect(Date.now() - started).toBeLessThan(2_000);
    server.enqueue({ stallAfter: 2, reply: { text: "Hello there, friend" } });
    await expect(
      model().complete({
        node: "n",
        purpose: "chat",
        messages: [],
        onText: () => undefined,
        signal: AbortSignal.timeout(200),
      }),
    ).rejects.toThrow("the call was abandoned: its caller's deadline passed");
  });
});
