// AiSdkModel over language models of the provider specification v4 (the providers made for ai 7):
// what v4 added (an `interrupted` finish, `structuredOutputText`, parts of new kinds in a stream),
// first against a model written here to that interface, then, where AUTOGRAMS_AI_SDK_DIR names a
// node_modules folder holding ai 7 and @ai-sdk/openai 4 (they need Node 22: .ci/run installs them),
// against ai 7's own mock and the real provider talking HTTP to the local OpenAI-compatible server.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AiSdkModel } from "@autograms/runtime/ai-sdk";
import { ModelError } from "@autograms/runtime";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";

type LanguageModel = ConstructorParameters<typeof AiSdkModel>[0];

const usage = {
  inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};
const finish = (unified: string) => ({ type: "finish", finishReason: { unified, raw: undefined }, usage });
const streamOf = (parts: object[]) =>
  new ReadableStream({
    start(controller) {
      for (const p of parts) controller.enqueue(p);
      controller.close();
    },
  });

/** A v4 language model answering from lists: generated results, and streams (each a list of parts). */
function v4Model(generated: object[], streamed: object[][] = []) {
  const calls: Record<string, unknown>[] = [];
  const model = {
    specificationVersion: "v4",
    provider: "mock.v4",
    modelId: "mock-4",
    supportedUrls: {},
    doGenerate: async (call: Record<string, unknown>) => {
      calls.push(call);
      const next = generated.shift();
      if (!next) throw new Error("the mock has no answer left");
      return next;
    },
    doStream: async (call: Record<string, unknown>) => {
      calls.push(call);
      const next = streamed.shift();
      if (!next) throw new Error("the mock has no stream left");
      return { stream: streamOf(next) };
    },
  };
  return { model: model as unknown as LanguageModel, calls };
}

const ask = { node: "ask", purpose: "chat" as const, messages: [{ role: "user" as const, content: "hi" }] };

describe("AiSdkModel with a v4 language model", () => {
  it("refuses a model of another version, naming the versions it reads and what to install", () => {
    const v2 = { specificationVersion: "v2", provider: "p", modelId: "m" } as never;
    expect(() => new AiSdkModel(v2)).toThrow(
      'AiSdkModel: the model\'s specification version is "v2"; AiSdkModel reads "v3" and "v4", the language models of the providers made for ai 6 and ai 7: install a current provider (e.g. npm install @ai-sdk/openai@4, or @ai-sdk/openai@3 on Node 20)',
    );
  });

  it("reads a generated answer, and the JSON answer from structuredOutputText when there is one", async () => {
    const { model, calls } = v4Model([
      {
        content: [{ type: "text", text: "Hello" }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      },
      {
        content: [
          { type: "text", text: "Let me think. " },
          { type: "custom", kind: "mock.note" },
          { type: "text", text: '{"n": 2}' },
        ],
        structuredOutputText: '{"n": 2}',
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [{ type: "deprecated", setting: "x", message: "old" }],
      },
    ]);
    const used: unknown[] = [];
    const m = new AiSdkModel(model);
    expect(await m.complete({ ...ask, onUsage: (u) => used.push(u) })).toBe("Hello");
    expect(used).toEqual([{ inputTokens: 5, outputTokens: 2 }]);
    const schema = { type: "object", properties: { n: { type: "number" } } };
    expect(await m.complete({ ...ask, schema })).toBe('{"n": 2}');
    expect(calls[1]).toMatchObject({ responseFormat: { type: "json", name: "answer", schema } });
  });

  it("streams past the parts of kinds v4 added, and returns its tool calls", async () => {
    const { model } = v4Model(
      [],
      [
        [
          { type: "stream-start", warnings: [] },
          { type: "ping" },
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "Let me " },
          { type: "reasoning-file", mediaType: "image/png", data: "AA==" },
          { type: "custom", kind: "mock.note" },
          { type: "text-delta", id: "t", delta: "look." },
          { type: "text-end", id: "t", citations: [] },
          { type: "tool-call", toolCallId: "c1", toolName: "find", input: '{"q":"tea"}' },
          { type: "tool-call", toolCallId: "c2", toolName: "web", input: "{}", providerExecuted: true },
          finish("tool-calls"),
        ],
      ],
    );
    const pieces: string[] = [];
    const answer = await new AiSdkModel(model).completeWithTools({
      ...ask,
      tools: [{ name: "find", parameters: { type: "object", properties: { q: { type: "string" } } } }],
      onText: (d) => pieces.push(d),
    });
    expect(pieces).toEqual(["Let me ", "look."]);
    expect(answer).toEqual({
      text: "Let me look.",
      toolCalls: [{ id: "c1", name: "find", arguments: '{"q":"tea"}' }],
      finishReason: "tool_calls",
    });
  });

  it("takes an interrupted answer for a broken one: tried again before any text went out, final after", async () => {
    const whole = [{ type: "text-delta", id: "t", delta: "Hello" }, finish("stop")];
    const silent = v4Model([], [[{ type: "stream-start", warnings: [] }, finish("interrupted")], whole]);
    expect(await new AiSdkModel(silent.model).complete({ ...ask, onText: () => {} })).toBe("Hello");
    expect(silent.calls).toHaveLength(2);

    // doGenerate's answer alike (no retries here: each waits half a second)
    const generated = v4Model([
      {
        content: [{ type: "text", text: "Hal" }],
        finishReason: { unified: "interrupted", raw: undefined },
        usage,
        warnings: [],
      },
    ]);
    await expect(new AiSdkModel(generated.model, { maxRetries: 0 }).complete(ask)).rejects.toThrow(
      "node 'ask': model call failed: the answer ended before the provider said it was complete",
    );

    const interrupted = [{ type: "text-delta", id: "t", delta: "Hal" }, finish("interrupted")];
    const shown = v4Model([], [interrupted, whole]);
    const err = await new AiSdkModel(shown.model).complete({ ...ask, onText: () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).message).toBe(
      "node 'ask': model call failed: the answer ended before the provider said it was complete",
    );
    expect(shown.calls).toHaveLength(1);
  });
});

const dir = process.env.AUTOGRAMS_AI_SDK_DIR;
const from = createRequire(dir ? join(dir, "..", "package.json") : import.meta.filename);
const load = async (name: string) => import(pathToFileURL(from.resolve(name)).href);

describe.skipIf(!dir)("AiSdkModel with ai 7's packages (AUTOGRAMS_AI_SDK_DIR: they need Node 22)", () => {
  let server: OpenAIServer;
  beforeEach(async () => {
    server = await startOpenAIServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it("reads ai 7's MockLanguageModelV4", async () => {
    const { MockLanguageModelV4 } = await load("ai/test");
    const model = new MockLanguageModelV4({
      doGenerate: {
        content: [{ type: "text", text: "Hello from v4" }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      },
    });
    expect(model.specificationVersion).toBe("v4");
    expect(await new AiSdkModel(model).complete(ask)).toBe("Hello from v4");
    expect(model.doGenerateCalls[0].prompt).toEqual([{ role: "user", content: [{ type: "text", text: "hi" }] }]);
  });

  const openai = async () => {
    const { createOpenAI } = await load("@ai-sdk/openai");
    const version = JSON.parse(
      await import("node:fs").then((fs) => fs.readFileSync(from.resolve("@ai-sdk/openai/package.json"), "utf8")),
    ).version as string;
    expect(version).toMatch(/^4\./);
    return new AiSdkModel(createOpenAI({ baseURL: server.baseURL, apiKey: "k" }).chat("test-model"));
  };

  it("talks to an OpenAI-compatible server through @ai-sdk/openai 4: text, streams, tool calls", async () => {
    const model = await openai();
    server.enqueue(
      { text: "Hello!" },
      { text: "Hello there!", chunks: ["Hel", "lo the", "re!"] },
      { toolCalls: [{ id: "call_1", name: "price_of", arguments: { item: "tea" } }] },
    );
    expect(await model.complete({ ...ask, messages: [{ role: "system", content: "Be kind." }, ...ask.messages] })).toBe(
      "Hello!",
    );
    expect(server.completions[0]!.body).toMatchObject({
      model: "test-model",
      messages: [
        { role: "system", content: "Be kind." },
        { role: "user", content: "hi" },
      ],
    });
    const pieces: string[] = [];
    expect(await model.complete({ ...ask, onText: (d) => pieces.push(d) })).toBe("Hello there!");
    expect(pieces.join("")).toBe("Hello there!");
    const answer = await model.completeWithTools({
      ...ask,
      tools: [{ name: "price_of", parameters: { type: "object", properties: { item: { type: "string" } } } }],
    });
    expect(answer.toolCalls).toEqual([{ id: "call_1", name: "price_of", arguments: '{"item":"tea"}' }]);
    expect(answer.finishReason).toBe("tool_calls");
  });

  it("tries again a stream the server ends before its finish, as @ai-sdk/openai 4 reports it interrupted", async () => {
    const model = await openai();
    const chunk = (content: string) =>
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "test-model", choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    server.enqueue({ sse: [chunk(""), "data: [DONE]\n\n"] }, { text: "Hello!" });
    expect(await model.complete({ ...ask, onText: () => {} })).toBe("Hello!");
    expect(server.completions).toHaveLength(2);
  });
});
