// A streamed answer's tokens reach its model-call span as the GenAI conventions name them: the
// real openai client asks the local test server for the stream's usage chunk.
import { context, propagation, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, OpenAIModel } from "@autograms/runtime";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";
import { graph } from "./helpers.js";

const exporter = new InMemorySpanExporter();
let provider: NodeTracerProvider;
let server: OpenAIServer;

beforeAll(async () => {
  provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  server = await startOpenAIServer();
});
// The SDK registers itself on the process's global object; other test files share this process.
afterAll(async () => {
  await server.close();
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

describe("usage in telemetry", () => {
  it("puts a streamed answer's tokens on its chat span", async () => {
    server.enqueue({ text: "Hello there!", usage: { prompt_tokens: 200, completion_tokens: 3 } });
    const agent = new Agent(graph([{ name: "greet", action: "chat", instruction: "Greet.", transitions: ["quit"] }]), {
      model: new OpenAIModel({ model: "test-model", baseURL: server.baseURL, apiKey: "k", stream: true }),
    });
    const { reply } = await agent.reply("hi", undefined, { onText: () => {} });
    expect(reply).toBe("Hello there!");
    expect(server.completions[0]!.body.stream).toBe(true);
    const chat = exporter.getFinishedSpans().find((s) => s.name === "chat test-model")!;
    expect(chat.attributes["gen_ai.usage.input_tokens"]).toBe(200);
    expect(chat.attributes["gen_ai.usage.output_tokens"]).toBe(3);
  });
});
