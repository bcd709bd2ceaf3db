// OpenTelemetry spans of a turn, read back from the SDK's in-memory exporter: the turn, its nodes,
// the model calls and the tool calls under them, with the GenAI conventions' attributes.
import { context, propagation, trace, SpanStatusCode } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Agent, ScriptedModel, defineTool, type ToolCompletionRequest } from "@autograms/runtime";
import { graph, n } from "./helpers.js";

const exporter = new InMemorySpanExporter();
let provider: NodeTracerProvider;

beforeAll(() => {
  provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
});
afterEach(() => {
  exporter.reset();
  delete process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT;
});
// The SDK registers itself on the process's global object; other test files share this process.
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

const add = defineTool({
  name: "add",
  description: "Adds two numbers.",
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  run: ({ a, b }: { a: number; b: number }) => a + b,
});
const explode = defineTool({
  name: "explode",
  parameters: { type: "object", properties: {} },
  run: (): number => {
    throw new Error("the fuse was wet");
  },
});

/** A scripted model that reports the tokens of each call with tools, as a real one does. */
class CountingModel extends ScriptedModel {
  override completeWithTools(req: ToolCompletionRequest) {
    req.onUsage?.({ inputTokens: 12, outputTokens: 5 });
    return super.completeWithTools(req);
  }
}

const source = { file: "shop/agent.ts", sha256: "a".repeat(64) };
const tools = { add: { module: "./t.js", export: "add" }, explode: { module: "./t.js", export: "explode" } };

function shop(script: ConstructorParameters<typeof ScriptedModel>[0]) {
  const g = graph(
    [
      n({
        name: "start",
        action: "thought",
        instruction: "Think.",
        transitions: ["answer"],
        loc: { line: 4, column: 5, endLine: 4, endColumn: 20 },
      }),
      n({
        name: "answer",
        action: "chat",
        instruction: "Answer with the tools.",
        tools: ["add", "explode"],
        transitions: ["answer"],
        loc: { line: 7, column: 5, endLine: 7, endColumn: 40 },
      }),
    ],
    { tools, source, agent: "Shop" },
  );
  return new Agent(g, { model: new CountingModel(script), tools: { add, explode }, config: { retryDelayMs: 0 } });
}

const byName = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const one = (spans: ReadableSpan[], name: string) => {
  const found = byName(spans, name);
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0]!;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe("OpenTelemetry spans", () => {
  it("trace a turn: its nodes, and the model and tool calls under the node that made them", async () => {
    const agent = shop({
      complete: ["thinking"],
      tools: [{ toolCalls: [{ id: "c1", name: "add", arguments: { a: 2, b: 40 } }] }, "It is 42."],
    });
    const { reply } = await agent.reply("", undefined, { conversationId: "thread-7" });
    expect(reply).toBe("It is 42.");
    const spans = exporter.getFinishedSpans();
    const turn = one(spans, "invoke_agent Shop");
    expect(turn.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "Shop",
      "gen_ai.conversation.id": "thread-7",
      "code.file.path": "shop/agent.ts",
    });
    expect(parentOf(turn)).toBeUndefined();
    const start = one(spans, "node start");
    const answer = one(spans, "node answer");
    for (const node of [start, answer]) expect(parentOf(node)).toBe(turn.spanContext().spanId);
    expect(answer.attributes).toEqual({
      "autograms.node.name": "answer",
      "autograms.node.action": "chat",
      "code.line.number": 7,
      "code.column.number": 5,
      "code.file.path": "shop/agent.ts",
    });

    const chats = byName(spans, "chat scripted");
    expect(chats).toHaveLength(3);
    expect(parentOf(chats[0]!)).toBe(start.spanContext().spanId);
    expect(chats[0]!.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "autograms",
      "gen_ai.request.model": "scripted",
      "autograms.node.name": "start",
      "autograms.model.purpose": "thought",
    });
    expect(chats.slice(1).map((s) => parentOf(s))).toEqual([answer.spanContext().spanId, answer.spanContext().spanId]);
    expect(chats[1]!.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 12,
      "gen_ai.usage.output_tokens": 5,
      "gen_ai.response.finish_reasons": ["tool_calls"],
    });
    expect(chats[1]!.attributes["gen_ai.input.messages"]).toBeUndefined();

    const tool = one(spans, "execute_tool add");
    expect(parentOf(tool)).toBe(answer.spanContext().spanId);
    expect(tool.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "add",
      "gen_ai.tool.type": "function",
    });
    expect(tool.status.code).not.toBe(SpanStatusCode.ERROR);
    // Each span lies within its parent's. Its start is stamped from the millisecond clock (they
    // may differ by a millisecond); its end from its start and a finer clock, so two spans' ends
    // are not comparable across a wall-clock adjustment: the exporter's order, the order the
    // spans ended in, says which ended first.
    const ns = (t: [number, number]) => t[0] * 1e9 + t[1];
    for (const s of [start, answer, ...chats, tool]) {
      const parent = spans.find((p) => p.spanContext().spanId === parentOf(s))!;
      expect(ns(s.startTime), `${s.name} starts before ${parent.name}`).toBeGreaterThanOrEqual(
        ns(parent.startTime) - 1e6,
      );
      expect(spans.indexOf(s), `${s.name} ends before ${parent.name}`).toBeLessThan(spans.indexOf(parent));
    }
  });

  it("record the messages only when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true", async () => {
    process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT = "true";
    await shop({ complete: ["thinking"], tools: ["Hello."] }).reply("");
    const chats = byName(exporter.getFinishedSpans(), "chat scripted");
    expect(JSON.parse(chats[0]!.attributes["gen_ai.output.messages"] as string)).toEqual([
      { role: "assistant", parts: [{ type: "text", content: "thinking" }] },
    ]);
    const input = JSON.parse(chats[1]!.attributes["gen_ai.input.messages"] as string) as {
      role: string;
      parts: { content: string }[];
    }[];
    expect(input.at(-1)!.role).toBe("user");
    expect(input.at(-1)!.parts[0]!.content).toContain("Answer with the tools.");
    expect(JSON.parse(chats[1]!.attributes["gen_ai.output.messages"] as string)).toEqual([
      { role: "assistant", parts: [{ type: "text", content: "Hello." }] },
    ]);
  });

  it("mark a failed tool call and a failed turn as errors", async () => {
    const agent = shop({
      complete: ["thinking"],
      tools: [{ toolCalls: [{ id: "c1", name: "explode", arguments: {} }] }, "Sorry."],
    });
    await agent.reply("");
    const tool = one(exporter.getFinishedSpans(), "execute_tool explode");
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: "the fuse was wet" });
    expect(tool.events.map((e) => e.name)).toEqual(["exception"]);
    exporter.reset();

    await expect(shop({ complete: [] }).reply("")).rejects.toThrow();
    const spans = exporter.getFinishedSpans();
    for (const name of ["invoke_agent Shop", "node start", "chat scripted"]) {
      expect(one(spans, name).status.code, name).toBe(SpanStatusCode.ERROR);
    }
    expect(one(spans, "invoke_agent Shop").attributes["error.type"]).toBe("model");
    expect(one(spans, "chat scripted").attributes["error.type"]).toBe("script");
  });

  it("trace a function call under the function's name", async () => {
    const g = graph([n({ name: "f.body", action: "code", instruction: "add({ a: 1, b: 2 })" })], {
      agent: "Calc",
      tools,
      functions: { f: { kind: "function", params: [], entry: "f.body" } },
    });
    await new Agent(g, { model: new ScriptedModel({}), tools: { add, explode } }).call("f");
    const spans = exporter.getFinishedSpans();
    expect(one(spans, "invoke_agent Calc").attributes["autograms.function"]).toBe("f");
    expect(parentOf(one(spans, "execute_tool add"))).toBe(one(spans, "node f.body").spanContext().spanId);
  });

  it("are not made when no SDK is registered: the turn runs as before", async () => {
    trace.disable();
    try {
      const { reply } = await shop({ complete: ["thinking"], tools: ["Hello."] }).reply("");
      expect(reply).toBe("Hello.");
      expect(exporter.getFinishedSpans()).toEqual([]);
    } finally {
      provider.register();
    }
  });
});
