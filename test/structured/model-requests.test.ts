// What each model makes of a completion request with a `schema` (a thought that answers as data):
// OpenAIModel asks an OpenAI-compatible server (the real client over HTTP) for a JSON Schema
// response format and stops asking a server that refuses it; AiSdkModel gives the provider a JSON
// response format; the offline model answers with a value the schema takes.
import { afterEach, describe, expect, it } from "vitest";
import { MockLanguageModelV3 } from "ai/test";
import { AiSdkModel } from "@autograms/runtime/ai-sdk";
import { OfflineModel, OpenAIModel, type JsonSchema } from "@autograms/runtime";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";

const SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    city: { type: "string", minLength: 12 },
    days: { type: "integer", exclusiveMinimum: 2, maximum: 9 },
    tags: { type: "array", items: { enum: ["sea", "hills"] }, minItems: 2 },
    kind: { anyOf: [{ const: "trip" }, { type: "null" }] },
    ok: { type: ["boolean", "null"] },
  },
  required: ["city", "days", "tags"],
};
const request = { node: "plan", purpose: "thought" as const, messages: [{ role: "user" as const, content: "Plan." }] };

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("OpenAIModel", () => {
  const modelOn = (s: OpenAIServer) => new OpenAIModel({ model: "m", baseURL: s.baseURL, apiKey: "k", maxRetries: 0 });

  it("asks for a JSON Schema response format", async () => {
    server = await startOpenAIServer();
    server.enqueue({ text: '{"city":"x"}' });
    expect(await modelOn(server).complete({ ...request, schema: SCHEMA })).toBe('{"city":"x"}');
    expect(server.completions[0]!.body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "answer", schema: SCHEMA, strict: false },
    });
  });

  it("asks a server that refuses response formats without one, from then on", async () => {
    server = await startOpenAIServer({ unsupported: ["response_format"] });
    server.enqueue({ text: "{}" }, { text: "{}" });
    const model = modelOn(server);
    expect(await model.complete({ ...request, schema: SCHEMA })).toBe("{}");
    expect(await model.complete({ ...request, schema: SCHEMA })).toBe("{}");
    // The refused request, then the same without it, then the next without asking again.
    expect(server.completions.map((c) => c.body.response_format !== undefined)).toEqual([true, false, false]);
  });

  it("sends the schema as the response format beside the tools, and stops when the server refuses it", async () => {
    const tools = [{ name: "stock", parameters: { type: "object", properties: {} } }];
    server = await startOpenAIServer();
    server.enqueue({ text: '{"city":"x"}' }, { text: "{}" });
    const withTools = { ...request, tools, schema: SCHEMA };
    expect((await modelOn(server).completeWithTools(withTools)).text).toBe('{"city":"x"}');
    // Streamed, too.
    expect((await modelOn(server).completeWithTools({ ...withTools, stream: true })).text).toBe("{}");
    for (const { body } of server.completions) {
      expect(body.tools).toHaveLength(1);
      expect(body.response_format).toEqual({
        type: "json_schema",
        json_schema: { name: "answer", schema: SCHEMA, strict: false },
      });
    }
    await server.close();
    server = await startOpenAIServer({ unsupported: ["response_format"] });
    server.enqueue({ text: "{}" });
    expect((await modelOn(server).completeWithTools(withTools)).text).toBe("{}");
    expect(server.completions.map((c) => c.body.response_format !== undefined)).toEqual([true, false]);
  });

  it("sends none for a request without a schema", async () => {
    server = await startOpenAIServer();
    server.enqueue({ text: "hi" });
    await modelOn(server).complete(request);
    expect(server.completions[0]!.body.response_format).toBeUndefined();
  });
});

describe("AiSdkModel", () => {
  it("gives the provider a JSON response format with the schema, with tools or without", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: "text", text: '{"city":"x"}' }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      }),
    });
    expect(await new AiSdkModel(model).complete({ ...request, schema: SCHEMA })).toBe('{"city":"x"}');
    expect(model.doGenerateCalls[0]!.responseFormat).toEqual({ type: "json", name: "answer", schema: SCHEMA });
    // With tools as well.
    const tools = [{ name: "stock", parameters: { type: "object", properties: {} } }];
    await new AiSdkModel(model).completeWithTools({ ...request, tools, schema: SCHEMA });
    expect(model.doGenerateCalls[1]!.responseFormat).toEqual({ type: "json", name: "answer", schema: SCHEMA });
    expect(model.doGenerateCalls[1]!.tools!.map((t) => t.name)).toEqual(["stock"]);
  });
});

describe("OfflineModel", () => {
  it("answers with a small value the schema takes, within its bounds", async () => {
    const answer = await new OfflineModel().complete({ ...request, schema: SCHEMA });
    expect(JSON.parse(answer)).toEqual({
      city: "(offline)...",
      days: 3,
      tags: ["sea", "sea"],
      kind: "trip",
      ok: false,
    });
  });
});
