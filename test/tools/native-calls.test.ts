// Native tool calls at a node that offers tools: the runtime runs the model's calls, gives it the
// results and asks again until it answers in text, reporting what goes wrong to the model.
import { describe, expect, it } from "vitest";
import {
  Agent,
  AgentError,
  ScriptedModel,
  defineTool,
  type ChatModel,
  type GraphNode,
  type ToolChatMessage,
} from "@autograms/runtime";
import { collect, graph, n, roundTrip } from "../runtime/helpers.js";

const add = defineTool({
  name: "add",
  description: "Adds two numbers.",
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  run: ({ a, b }: { a: number; b: number }) => a + b,
});

const slowUpper = defineTool({
  name: "upper",
  description: "Upper-cases a word, slowly.",
  parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
  run: async ({ word }: { word: string }) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { word: word.toUpperCase() };
  },
});

const explode = defineTool({
  name: "explode",
  description: "Always fails.",
  parameters: { type: "object", properties: {} },
  run: (): number => {
    throw new Error("the fuse was wet");
  },
});

const TOOLS = {
  add: { module: "./t.js", export: "add" },
  upper: { module: "./t.js", export: "upper" },
  explode: { module: "./t.js", export: "explode" },
};
const src = { file: "agent.ts", sha256: "a".repeat(64) };
const at = { line: 7, column: 5, endLine: 7, endColumn: 40 };

function agentWith(
  model: ChatModel,
  node: Partial<GraphNode> = {},
  options: Partial<ConstructorParameters<typeof Agent>[1]> = {},
) {
  const g = graph(
    [
      n({
        name: "answer",
        action: "chat",
        instruction: "Answer with the tools.",
        tools: ["add", "upper", "explode"],
        loc: at,
        transitions: ["answer"],
        ...node,
      } as GraphNode),
    ],
    { tools: TOOLS, source: src },
  );
  return new Agent(g, { model, tools: { add, upper: slowUpper, explode }, config: { retryDelayMs: 0 }, ...options });
}

/** The tool messages of a request, as the model was given them. */
const toolMessages = (messages: ToolChatMessage[]) =>
  messages.filter((m) => m.role === "tool").map((m) => (m as { content: string }).content);

describe("a node that offers tools", () => {
  it("runs the calls (async ones awaited), gives the model their results, and replies with its text", async () => {
    const model = new ScriptedModel({
      tools: [
        {
          text: "Let me compute.",
          toolCalls: [
            { id: "c1", name: "add", arguments: { a: 2, b: 40 } },
            { id: "c2", name: "upper", arguments: '{"word": "mars"}' },
          ],
        },
        "2 + 40 = 42, and MARS.",
      ],
    });
    const { events, trace } = collect();
    const r = await agentWith(model).reply("hi", undefined, { trace });
    expect(r.reply).toBe("2 + 40 = 42, and MARS.");
    const second = model.calls[1]!;
    expect(second.kind).toBe("tools");
    const messages = (second.request as { messages: ToolChatMessage[] }).messages;
    expect(messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: "Let me compute.",
        toolCalls: [
          { id: "c1", name: "add", arguments: '{"a":2,"b":40}' },
          { id: "c2", name: "upper", arguments: '{"word": "mars"}' },
        ],
      },
      { role: "tool", toolCallId: "c1", content: "42" },
      { role: "tool", toolCallId: "c2", content: '{"word":"MARS"}' },
    ]);
    expect((second.request as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual([
      "add",
      "upper",
      "explode",
    ]);
    expect(events.filter((e) => e.kind === "tool_call")).toMatchObject([
      { node: "answer", tool: "add", id: "c1", arguments: '{"a":2,"b":40}', round: 1, result: 42 },
      { node: "answer", tool: "upper", id: "c2", round: 1, result: { word: "MARS" } },
    ]);
    expect(events.find((e) => e.kind === "generate")).toMatchObject({
      output: "2 + 40 = 42, and MARS.",
      raw: ["2 + 40 = 42, and MARS."],
      toolAnswers: [
        {
          text: "Let me compute.",
          toolCalls: [
            { id: "c1", name: "add" },
            { id: "c2", name: "upper" },
          ],
        },
      ],
    });
  });

  it("tells the model about unknown tools, malformed arguments and tools that throw, and lets it recover", async () => {
    const model = new ScriptedModel({
      tools: [
        {
          toolCalls: [
            { id: "u", name: "search", arguments: "{}" },
            { id: "j", name: "add", arguments: '{"a": 2, "b": ' },
            { id: "o", name: "add", arguments: "[1, 2]" },
            { id: "x", name: "explode", arguments: "" },
            { id: "t", name: "add", arguments: { a: "two", b: 2 } },
          ],
        },
        "Sorry, I could not compute that.",
      ],
    });
    const { events, trace } = collect();
    const r = await agentWith(model).reply("hi", undefined, { trace });
    expect(r.reply).toBe("Sorry, I could not compute that.");
    const results = toolMessages((model.calls[1]!.request as { messages: ToolChatMessage[] }).messages);
    expect(results).toHaveLength(5);
    expect(results[0]).toBe("Error: there is no tool named 'search'; the tools are: add, upper, explode");
    expect(results[1]).toMatch(/^Error: the arguments are not valid JSON \(.+\); send one JSON object$/);
    expect(results[2]).toBe("Error: the arguments must be a JSON object, not an array");
    expect(results[3]).toBe("Error: the tool 'explode' failed: the fuse was wet");
    // A tool with no checks of its own still only gets what the model sent: "two" + 2.
    expect(results[4]).toBe("two2");
    expect(events.filter((e) => e.kind === "tool_call").map((e) => ("error" in e ? "error" : "result"))).toEqual([
      "error",
      "error",
      "error",
      "error",
      "result",
    ]);
  });

  it("gives each tool a copy of the arguments and accepts only plain data back", async () => {
    const seen: unknown[] = [];
    const keep = defineTool({
      name: "keep",
      description: "Keeps its argument.",
      parameters: { type: "object", properties: { list: { type: "array" } } },
      run: (args: { list: number[] }) => {
        seen.push(args);
        args.list.push(99);
        return new Map([[1, 2]]);
      },
    });
    const model = new ScriptedModel({
      tools: [{ toolCalls: [{ id: "k", name: "keep", arguments: { list: [1] } }] }, "done"],
    });
    const g = graph(
      [n({ name: "a", action: "thought", instruction: "Go.", tools: ["keep"], assign: "out" } as GraphNode)],
      { tools: { keep: { module: "./k.js", export: "keep" } } },
    );
    await new Agent(g, { model, tools: { keep } }).reply("");
    expect(seen).toEqual([{ list: [1, 99] }]);
    const sent = model.calls[0]!.answer!.toolCalls[0]!.arguments;
    expect(JSON.parse(sent)).toEqual({ list: [1] });
    expect(toolMessages((model.calls[1]!.request as { messages: ToolChatMessage[] }).messages)[0]).toMatch(
      /^Error: .*keep/,
    );
  });

  it("asks once more with tools refused after maxToolRounds, then fails the node if the model insists", async () => {
    const call = (id: string) => ({ toolCalls: [{ id, name: "add", arguments: { a: 1, b: 1 } }] });
    const answered = new ScriptedModel({ tools: [call("1"), call("2"), "Two rounds were enough."] });
    const r = await agentWith(answered, {}, { config: { maxToolRounds: 2, retryDelayMs: 0 } }).reply("");
    expect(r.reply).toBe("Two rounds were enough.");
    expect(answered.calls.map((c) => (c.request as { toolChoice?: string }).toolChoice)).toEqual([
      "auto",
      "auto",
      "none",
    ]);

    const stubborn = new ScriptedModel({ tools: [call("1"), call("2"), call("3")] });
    const error = await agentWith(stubborn, {}, { config: { maxToolRounds: 2, retryDelayMs: 0 } })
      .reply("")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({ code: "tool_limit", node: "answer", location: "agent.ts:7:5" });
    expect((error as Error).message).toContain("after 2 rounds of tool calls");
  });

  it("keeps only the final answer in the conversation: the next turn's prompt has no tool messages", async () => {
    const model = new ScriptedModel({
      tools: [{ toolCalls: [{ id: "c", name: "add", arguments: { a: 1, b: 2 } }] }, "It is 3.", "You're welcome."],
    });
    const agent = agentWith(model);
    const first = await agent.reply("What is 1 + 2?");
    const second = await agent.reply("Thanks!", roundTrip(first.memory));
    expect(second.reply).toBe("You're welcome.");
    const messages = (model.calls[2]!.request as { messages: ToolChatMessage[] }).messages;
    expect(messages.every((m) => m.role === "user" || m.role === "assistant")).toBe(true);
    expect(messages.some((m) => m.role === "assistant" && m.content === "It is 3.")).toBe(true);
    expect(first.memory.stack[0]!.turns).toEqual([
      expect.objectContaining({ node: "answer", agent: "It is 3.", user: "What is 1 + 2?" }),
    ]);
  });

  it("asks again with the tool results when an answer is unusable (a banned phrase)", async () => {
    const model = new ScriptedModel({
      tools: [{ toolCalls: [{ id: "c", name: "add", arguments: { a: 1, b: 2 } }] }, "As an AI, 3.", "It is 3."],
    });
    const r = await agentWith(model, {}, { config: { bannedPhrases: ["as an ai"], retryDelayMs: 0 } }).reply("");
    expect(r.reply).toBe("It is 3.");
    const [, second, third] = model.calls.map((c) => (c.request as { messages: ToolChatMessage[] }).messages);
    expect(third).toEqual(second);
  });

  it("streams the model's answers when the config asks", async () => {
    const model = new ScriptedModel({ tools: ["plain"] });
    await agentWith(model, {}, { config: { streamTools: true } }).reply("");
    expect((model.calls[0]!.request as { stream?: boolean }).stream).toBe(true);
  });
});

describe("what an agent with native tools needs", () => {
  it("a model that can call tools: otherwise the node fails with its location", async () => {
    const plain: ChatModel = { complete: async () => "text", choose: async () => 0 };
    await expect(agentWith(plain).reply("")).rejects.toMatchObject({
      code: "model",
      node: "answer",
      location: "agent.ts:7:5",
    });
  });

  it("tools made with defineTool: a plain function has no description to offer", () => {
    const g = graph([n({ name: "a", action: "chat", instruction: "x", tools: ["plain"], loc: at } as GraphNode)], {
      tools: { plain: { module: "./p.js", export: "plain" } },
      source: src,
    });
    expect(() => new Agent(g, { model: new ScriptedModel({}), tools: { plain: () => 1 } })).toThrow(
      /agent\.ts:7:5: node 'a': offers tool 'plain' to the model, but its implementation has no description: make it with defineTool/,
    );
  });

  it("distinct names for the model", () => {
    const g = graph([n({ name: "a", action: "chat", instruction: "x", tools: ["one", "two"] } as GraphNode)], {
      tools: { one: { module: "./p.js", export: "add" }, two: { module: "./q.js", export: "add" } },
    });
    expect(() => new Agent(g, { model: new ScriptedModel({}), tools: { one: add, two: add } })).toThrow(
      /'one' and 'two', which the model would both call 'add'/,
    );
  });

  it("a graph whose nodes offer only its own tools, and only at chat and thought nodes", () => {
    const unknown = graph([n({ name: "a", action: "chat", instruction: "x", tools: ["nope"] } as GraphNode)]);
    expect(() => new Agent(unknown, { model: new ScriptedModel({}) })).toThrow(
      /node 'a': offers tool 'nope', which is not in the graph's tools/,
    );
    const onCode = graph([n({ name: "a", action: "code", instruction: "1", tools: ["add"] } as unknown as GraphNode)], {
      tools: { add: TOOLS.add },
    });
    expect(() => new Agent(onCode, { model: new ScriptedModel({}), tools: { add } })).toThrow(
      /only chat, chat_suffix, thought and thought_qa nodes offer tools to the model, not code/,
    );
  });
});
