// AiSdkModel against the AI SDK's own mock language model (ai/test): what it sends a provider and
// what it makes of the answers, failures, deadlines and streams.
import {
  APICallError,
  type LanguageModelV3CallOptions,
  type LanguageModelV3GenerateResult,
  type LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { AiSdkModel } from "@autograms/runtime/ai-sdk";
import { isToolCallingModel, ModelError, type RetryNotice, type ToolChatMessage } from "@autograms/runtime";

const usage = {
  inputTokens: { total: 7, noCache: 7, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 3, text: 3, reasoning: undefined },
};

function generated(
  content: LanguageModelV3GenerateResult["content"],
  unified: "stop" | "tool-calls" | "content-filter" = "stop",
  warnings: LanguageModelV3GenerateResult["warnings"] = [],
): LanguageModelV3GenerateResult {
  return { content, finishReason: { unified, raw: unified }, usage, warnings };
}
const text = (t: string, warnings: LanguageModelV3GenerateResult["warnings"] = []) =>
  generated([{ type: "text", text: t }], "stop", warnings);

function streamOf(deltas: string[], extra: LanguageModelV3StreamPart[] = []) {
  return {
    stream: convertArrayToReadableStream<LanguageModelV3StreamPart>([
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      ...deltas.map((delta): LanguageModelV3StreamPart => ({ type: "text-delta", id: "t", delta })),
      { type: "text-end", id: "t" },
      ...extra,
      {
        type: "finish",
        finishReason: { unified: extra.some((p) => p.type === "tool-call") ? "tool-calls" : "stop", raw: undefined },
        usage,
      },
    ]),
  };
}

const apiError = (statusCode: number | undefined, message: string, headers: Record<string, string> = {}) =>
  new APICallError({
    message,
    url: "https://api.example.com/v1/messages",
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    ...(statusCode === undefined && { isRetryable: true }),
  });

/** A mock whose doGenerate answers from a list, one item per call: a result, or an error to throw. */
function mock(answers: (LanguageModelV3GenerateResult | Error)[]) {
  const model = new MockLanguageModelV3({
    provider: "mock.chat",
    modelId: "mock-1",
    doGenerate: async () => {
      const next = answers.shift();
      if (next === undefined) throw new Error("the mock has no answer left");
      if (next instanceof Error) throw next;
      return next;
    },
  });
  return model;
}

const msg = (call: LanguageModelV3CallOptions) => call.prompt;

describe("AiSdkModel", () => {
  it("refuses what is not a language model of the v3 or v4 specification", () => {
    expect(() => new AiSdkModel("claude-sonnet-4-5" as never)).toThrow(
      'AiSdkModel: pass a language model object (e.g. anthropic("claude-sonnet-4-5")), not its name',
    );
    expect(() => new AiSdkModel({ specificationVersion: "v2", provider: "p", modelId: "m" } as never)).toThrow(
      'the model\'s specification version is "v2"; AiSdkModel reads "v3" and "v4"',
    );
  });

  it("sends the conversation in the provider's format and returns the text", async () => {
    const model = mock([text("Hello there.")]);
    const m = new AiSdkModel(model, { temperature: 0.2, maxTokens: 50, providerOptions: { mock: { x: 1 } } });
    expect(isToolCallingModel(m)).toBe(true);
    expect(m.model).toBe("mock-1");
    expect(m.provider).toBe("mock.chat");
    const usage: unknown[] = [];
    const reply = await m.complete({
      node: "greet",
      purpose: "chat",
      onUsage: (u) => usage.push(u),
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi" },
        { role: "assistant", content: "hey" },
        { role: "user", content: "how?" },
      ],
    });
    expect(reply).toBe("Hello there.");
    expect(usage).toEqual([{ inputTokens: 7, outputTokens: 3 }]);
    const call = model.doGenerateCalls[0]!;
    expect(msg(call)).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "assistant", content: [{ type: "text", text: "hey" }] },
      { role: "user", content: [{ type: "text", text: "how?" }] },
    ]);
    expect(call).toMatchObject({ temperature: 0.2, maxOutputTokens: 50, providerOptions: { mock: { x: 1 } } });
    expect(call.abortSignal).toBeInstanceOf(AbortSignal);
    expect(model.doStreamCalls).toHaveLength(0);
  });

  it("streams an answer someone watches, piece by piece, through doStream", async () => {
    const model = new MockLanguageModelV3({ doStream: streamOf(["Hel", "lo ", "there."]) });
    const pieces: string[] = [];
    const reply = await new AiSdkModel(model).complete({
      node: "greet",
      purpose: "chat",
      messages: [{ role: "user", content: "hi" }],
      onText: (d) => pieces.push(d),
    });
    expect(pieces).toEqual(["Hel", "lo ", "there."]);
    expect(reply).toBe("Hello there.");
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("does not stream with stream: false", async () => {
    const model = mock([text("whole")]);
    const pieces: string[] = [];
    expect(
      await new AiSdkModel(model, { stream: false }).complete({
        node: "n",
        purpose: "chat",
        messages: [],
        onText: (d) => pieces.push(d),
      }),
    ).toBe("whole");
    expect(pieces).toEqual([]);
  });

  it("offers tools natively and returns the calls the model makes, not those the provider ran itself", async () => {
    const model = mock([
      generated(
        [
          { type: "text", text: "Let me look." },
          { type: "tool-call", toolCallId: "c1", toolName: "price_of", input: '{"item":"tea"}' },
          { type: "tool-call", toolCallId: "c2", toolName: "web_search", input: "{}", providerExecuted: true },
        ],
        "tool-calls",
      ),
    ]);
    const messages: ToolChatMessage[] = [
      { role: "user", content: "tea and cake?" },
      {
        role: "assistant",
        content: null,
        toolCalls: [
          { id: "c0", name: "price_of", arguments: '{"item":"cake"}' },
          { id: "cx", name: "price_of", arguments: "not json" },
        ],
      },
      { role: "tool", toolCallId: "c0", content: "3.5" },
    ];
    const answer = await new AiSdkModel(model).completeWithTools({
      node: "shop",
      messages,
      toolChoice: { name: "price_of" },
      tools: [
        {
          name: "price_of",
          description: "Price of an item.",
          parameters: { type: "object", properties: { item: { type: "string" } } },
          strict: true,
        },
        { name: "now" },
      ],
    });
    expect(answer).toEqual({
      text: "Let me look.",
      toolCalls: [{ id: "c1", name: "price_of", arguments: '{"item":"tea"}' }],
      finishReason: "tool_calls",
    });
    const call = model.doGenerateCalls[0]!;
    expect(call.tools).toEqual([
      {
        type: "function",
        name: "price_of",
        description: "Price of an item.",
        inputSchema: { type: "object", properties: { item: { type: "string" } } },
        strict: true,
      },
      { type: "function", name: "now", inputSchema: { type: "object", properties: {} } },
    ]);
    expect(call.toolChoice).toEqual({ type: "tool", toolName: "price_of" });
    expect(msg(call).slice(1)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "c0", toolName: "price_of", input: { item: "cake" } },
          { type: "tool-call", toolCallId: "cx", toolName: "price_of", input: "not json" },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "c0", toolName: "price_of", output: { type: "text", value: "3.5" } },
        ],
      },
    ]);
  });

  it("streams tool calls when asked to, with the text before them", async () => {
    const model = new MockLanguageModelV3({
      doStream: streamOf(["One ", "moment."], [{ type: "tool-call", toolCallId: "c1", toolName: "now", input: "{}" }]),
    });
    const pieces: string[] = [];
    const answer = await new AiSdkModel(model).completeWithTools({
      node: "n",
      messages: [],
      tools: [{ name: "now" }],
      toolChoice: "required",
      stream: true,
      onText: (d) => pieces.push(d),
    });
    expect(answer).toEqual({
      text: "One moment.",
      toolCalls: [{ id: "c1", name: "now", arguments: "{}" }],
      finishReason: "tool_calls",
    });
    expect(pieces).toEqual(["One ", "moment."]);
    expect(model.doStreamCalls[0]!.toolChoice).toEqual({ type: "required" });
  });

  describe("choose", () => {
    const ask = (m: AiSdkModel) =>
      m.choose({ node: "route", prompt: "Is the user happy?", choices: ["yes", "no", "unclear"] });

    it("asks for a JSON answer whose field is an enum of the labels", async () => {
      const model = mock([text('{"answer":"B"}')]);
      expect(await ask(new AiSdkModel(model))).toBe(1);
      const call = model.doGenerateCalls[0]!;
      expect(call.responseFormat).toEqual({
        type: "json",
        name: "choice",
        schema: {
          type: "object",
          properties: { answer: { type: "string", enum: ["A", "B", "C"] } },
          required: ["answer"],
          additionalProperties: false,
        },
      });
      expect(call.temperature).toBe(0);
      expect(msg(call)[0]).toEqual({
        role: "system",
        content:
          "Answer the multiple choice question with the letter of the one correct answer (A, B, C) and nothing else.",
      });
      expect(msg(call)[1]).toEqual({
        role: "user",
        content: [{ type: "text", text: "Is the user happy?\nA. yes\nB. no\nC. unclear\n" }],
      });
    });

    it("falls back to a text answer, and stops asking for JSON where the provider refuses it", async () => {
      const model = mock([apiError(400, "response_format is not supported"), text("C"), text("A")]);
      const m = new AiSdkModel(model);
      expect(await ask(m)).toBe(2);
      expect(await ask(m)).toBe(0);
      expect(model.doGenerateCalls.map((c) => c.responseFormat?.type ?? "none")).toEqual(["json", "none", "none"]);
    });

    it("fails with what each strategy got when no answer names a choice", async () => {
      const m = new AiSdkModel(mock([text('{"answer":"Z"}'), text("I think so")]));
      await expect(ask(m)).rejects.toThrow(
        `node 'route': model call failed: no valid answer among 3 choices (json: the answer "{\\"answer\\":\\"Z\\"}" names none of A, B, C; text: the answer "I think so" names none of A, B, C)`,
      );
    });

    it("asks only for text with choiceStrategy: text", async () => {
      const model = mock([text("B")]);
      expect(await ask(new AiSdkModel(model, { choiceStrategy: "text" }))).toBe(1);
      expect(model.doGenerateCalls[0]!.responseFormat).toBeUndefined();
    });
  });

  describe("failures", () => {
    const hi = (m: AiSdkModel, signal?: AbortSignal) =>
      m.complete({
        node: "greet",
        purpose: "chat",
        messages: [{ role: "user", content: "hi" }],
        ...(signal && { signal }),
      });

    it("retries what the provider marks retryable, waiting what the server asks, and says so", async () => {
      const notices: RetryNotice[] = [];
      const model = mock([
        apiError(429, "slow down", { "retry-after-ms": "5" }),
        apiError(undefined, "Cannot connect to API: connect ECONNREFUSED"),
        text("ok"),
      ]);
      expect(await hi(new AiSdkModel(model, { onRetry: (n) => notices.push(n) }))).toBe("ok");
      expect(notices.map(({ attempt, reason, status }) => ({ attempt, reason, status }))).toEqual([
        { attempt: 1, reason: "429 Too Many Requests", status: 429 },
        { attempt: 2, reason: "the server cannot be reached", status: undefined },
      ]);
      expect(notices[0]!.delayMs).toBe(5);
    });

    it("fails with the server's words after the last attempt", async () => {
      const m = new AiSdkModel(mock([apiError(500, "boom"), apiError(500, "boom")]), { maxRetries: 1 });
      const err = await hi(m).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ModelError);
      expect((err as ModelError).message).toBe(
        "node 'greet': model call failed: the server answered 500 Internal Server Error: boom (2 attempts)",
      );
      expect((err as ModelError).status).toBe(500);
    });

    it("does not retry what would fail again", async () => {
      const model = mock([apiError(401, "invalid x-api-key"), text("never")]);
      await expect(hi(new AiSdkModel(model))).rejects.toThrow(
        "node 'greet': model call failed: the server answered 401 Unauthorized: invalid x-api-key",
      );
      expect(model.doGenerateCalls).toHaveLength(1);
    });

    it("refuses a wait longer than maxRetryAfterMs", async () => {
      const m = new AiSdkModel(mock([apiError(503, "busy", { "retry-after": "100000" })]), { maxRetryAfterMs: 1000 });
      await expect(hi(m)).rejects.toThrow(
        "the server answered 503 Service Unavailable and asked to be retried in 27.8 h, longer than the 1 s allowed (maxRetryAfterMs)",
      );
    });

    it("abandons a call when the caller's signal aborts, the provider told through its own signal", async () => {
      let seen: AbortSignal | undefined;
      const model = new MockLanguageModelV3({
        doGenerate: (options) =>
          new Promise((_, reject) => {
            seen = options.abortSignal;
            options.abortSignal!.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
          }),
      });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 20);
      await expect(hi(new AiSdkModel(model), controller.signal)).rejects.toThrow(
        "node 'greet': model call failed: the call was abandoned: its caller's deadline passed",
      );
      expect(seen?.aborted).toBe(true);
    });

    it("ends an attempt that takes longer than timeout, and retries it", async () => {
      let calls = 0;
      const model = new MockLanguageModelV3({
        doGenerate: (options) =>
          new Promise((resolve, reject) => {
            if (++calls === 2) return resolve(text("second"));
            options.abortSignal!.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
          }),
      });
      const notices: RetryNotice[] = [];
      expect(await hi(new AiSdkModel(model, { timeout: 30, onRetry: (n) => notices.push(n) }))).toBe("second");
      expect(notices[0]!.reason).toBe("no answer in time");
      const never = new MockLanguageModelV3({ doGenerate: () => new Promise(() => undefined) });
      await expect(hi(new AiSdkModel(never, { timeout: 30, maxRetries: 0 }))).rejects.toThrow(
        "model call failed: no answer from mock-provider mock-model-id within 30 ms",
      );
    });

    it("fails a stream that stops sending; before any text it is sent again, after some it is final", async () => {
      const stalled = (deltas: string[]) => ({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(c) {
            c.enqueue({ type: "stream-start", warnings: [] });
            for (const delta of deltas) c.enqueue({ type: "text-delta", id: "t", delta });
          },
        }),
      });
      const retried = new MockLanguageModelV3({ doStream: [stalled([]), streamOf(["fine"])] });
      const pieces: string[] = [];
      const ask = (m: AiSdkModel) =>
        m.complete({ node: "greet", purpose: "chat", messages: [], onText: (d) => pieces.push(d) });
      expect(await ask(new AiSdkModel(retried, { idleTimeout: 30 }))).toBe("fine");
      expect(retried.doStreamCalls).toHaveLength(2);
      const cut = new MockLanguageModelV3({ doStream: [stalled(["half "]), streamOf(["never"])] });
      await expect(ask(new AiSdkModel(cut, { idleTimeout: 30 }))).rejects.toThrow(
        "node 'greet': model call failed: the stream stalled: no data for 30 ms",
      );
      expect(cut.doStreamCalls).toHaveLength(1);
      expect(pieces).toEqual(["fine", "half "]);
    });

    it("fails a stream that reports an error", async () => {
      const model = new MockLanguageModelV3({
        doStream: {
          stream: convertArrayToReadableStream<LanguageModelV3StreamPart>([
            { type: "text-delta", id: "t", delta: "a" },
            { type: "error", error: { message: "overloaded" } },
          ]),
        },
      });
      await expect(
        new AiSdkModel(model).complete({ node: "n", purpose: "chat", messages: [], onText: () => undefined }),
      ).rejects.toThrow('node \'n\': model call failed: the server reported an error: {"message":"overloaded"}');
    });

    it("reports a missing API key with the provider's words", async () => {
      const err = Object.assign(
        new Error(
          "Anthropic API key is missing. Pass it using the 'apiKey' parameter or the ANTHROPIC_API_KEY environment variable.",
        ),
        { [Symbol.for("vercel.ai.error.AI_LoadAPIKeyError")]: true },
      );
      await expect(hi(new AiSdkModel(mock([err])))).rejects.toThrow(
        "node 'greet': model call failed: mock.chat mock-1: Anthropic API key is missing.",
      );
    });
  });
});
