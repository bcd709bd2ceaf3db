// The tokens a model call used, as the server reports them, ride on the trace event of the step
// that waited for the call: through the real openai client and the local test server, answered
// whole and streamed (where the client asks for a usage chunk with `stream_options`).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  Agent,
  OpenAIModel,
  ReplayModel,
  defineTool,
  type ChatModel,
  type GraphNode,
  type TraceEvent,
} from "@autograms/runtime";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";
import { collect, graph } from "./helpers.js";

let server: OpenAIServer;
beforeEach(async () => {
  server = await startOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

const nodes: GraphNode[] = [
  { name: "look", action: "thought", instruction: "Look it up.", tools: ["lookup"], transitions: ["route"] },
  {
    name: "route",
    action: "transition",
    transitions: ["greet", "quit"],
    transition_question: "Found?",
    transition_choices: ["yes", "no"],
  },
  { name: "greet", action: "chat", instruction: "Greet the user.", transitions: ["quit"] },
] as GraphNode[];

const agentWith = (model: ChatModel) =>
  new Agent(graph(nodes, { tools: { lookup: { module: "./tools.js", export: "lookup" } } }), {
    model,
    tools: {
      lookup: defineTool({
        name: "lookup",
        description: "Looks it up.",
        parameters: { type: "object", properties: {} },
        run: () => 7,
      }),
    },
  });

const agentOn = (options: { stream?: boolean } = {}) =>
  agentWith(new OpenAIModel({ model: "test-model", baseURL: server.baseURL, apiKey: "k", ...options }));

function script(): void {
  server.enqueue(
    { toolCalls: [{ name: "lookup", arguments: {} }], usage: { prompt_tokens: 120, completion_tokens: 9 } },
    { text: "It is 7.", usage: { prompt_tokens: 140, completion_tokens: 4 } },
    { choice: "A" },
    { text: "Hello there!", usage: { prompt_tokens: 200, completion_tokens: 3 } },
  );
}

const at = (events: TraceEvent[], node: string, kind: string) =>
  events.find((e) => e.node === node && e.kind === kind)!;

describe("token usage in trace events", () => {
  it("adds up every call a step waited for, answered whole", async () => {
    script();
    const { events, trace } = collect();
    const { reply } = await agentOn().reply("hi", undefined, { trace });
    expect(reply).toBe("Hello there!");
    // Both rounds of the tool-calling thought are the generation's.
    expect(at(events, "look", "generate").usage).toEqual({ model: "test-model", inputTokens: 260, outputTokens: 13 });
    expect(at(events, "look", "tool_call").usage).toBeUndefined();
    expect(at(events, "route", "transition").usage).toEqual({ model: "test-model", inputTokens: 1, outputTokens: 1 });
    expect(at(events, "greet", "generate").usage).toEqual({ model: "test-model", inputTokens: 200, outputTokens: 3 });
    expect(server.completions.every((r) => r.body.stream_options === undefined)).toBe(true);
  });

  it("asks a stream for its usage chunk and records it", async () => {
    script();
    const { events, trace } = collect();
    const pieces: string[] = [];
    const { reply } = await agentOn({ stream: true }).reply("hi", undefined, {
      trace,
      onText: (c) => pieces.push(c.text),
    });
    expect(reply).toBe("Hello there!");
    expect(pieces.join("")).toBe("Hello there!");
    const streamed = server.completions.filter((r) => r.body.stream);
    expect(streamed).toHaveLength(1);
    expect(streamed[0]!.body.stream_options).toEqual({ include_usage: true });
    expect(at(events, "greet", "generate").usage).toEqual({ model: "test-model", inputTokens: 200, outputTokens: 3 });
  });

  it("does without usage where a server refuses stream_options", async () => {
    server = (await server.close(), await startOpenAIServer({ unsupported: ["stream_options"] }));
    server.enqueue({ text: "Hello there!" }, { text: "Hello again!" });
    const { events, trace } = collect();
    const agent = new Agent(graph([{ name: "greet", action: "chat", instruction: "Greet.", transitions: ["greet"] }]), {
      model: new OpenAIModel({ model: "test-model", baseURL: server.baseURL, apiKey: "k", stream: true }),
    });
    const first = await agent.reply("hi", undefined, { trace, onText: () => {} });
    expect(first.reply).toBe("Hello there!");
    expect(at(events, "greet", "generate").usage).toBeUndefined();
    // Refused once, never asked again.
    await agent.reply("again", first.memory, { onText: () => {} });
    expect(server.completions.map((r) => r.body.stream_options !== undefined)).toEqual([true, false, false]);
  });

  it("is absent from steps that called no model", async () => {
    const { events, trace } = collect();
    server.enqueue({ text: "Hi." });
    const agent = new Agent(
      graph([{ name: "greet", action: "chat_exact", instruction: "Hi.", transitions: ["quit"] }]),
      {
        model: new OpenAIModel({ model: "test-model", baseURL: server.baseURL, apiKey: "k" }),
      },
    );
    await agent.reply("hi", undefined, { trace });
    expect(events.some((e) => e.usage !== undefined)).toBe(false);
  });

  it("comes back in a replay as it was recorded", async () => {
    script();
    const recorded = collect();
    await agentOn().reply("hi", undefined, { trace: recorded.trace });
    const replayed = collect();
    const replay = agentWith(new ReplayModel(recorded.events));
    await replay.reply("hi", undefined, { trace: replayed.trace });
    const usages = (events: TraceEvent[]) => events.map((e) => e.usage);
    expect(usages(replayed.events)).toEqual(usages(recorded.events));
    expect(usages(replayed.events).filter(Boolean)).toHaveLength(3);
  });
});
