// samples/native-tools end to end: the real openai client against the local OpenAI-compatible
// server, which answers with tool calls (streamed in fragments when asked) and then with text.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentError, type TraceEvent } from "@autograms/runtime";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";
import { calculator, convert, lookup } from "../../samples/react-tools/tools.js";
import { Conversation, sampleAgent } from "./support.js";

let server: OpenAIServer;
beforeEach(async () => {
  server = await startOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

type WireMessage = {
  role: string;
  content: string | null;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
};
const body = (i: number) =>
  server.completions[i]!.body as { messages: WireMessage[]; tools: unknown[]; tool_choice?: unknown; stream?: boolean };
const toolResults = (i: number) =>
  body(i)
    .messages.filter((m) => m.role === "tool")
    .map((m) => [m.tool_call_id, m.content]);

describe("samples/native-tools", () => {
  it("offers the tools' definitions, runs the streamed calls (the lookup awaited) and answers", async () => {
    const events: TraceEvent[] = [];
    const agent = await sampleAgent("native-tools", server, { streamTools: true });
    const first = await agent.reply("");
    expect(first.reply).toBe("Ask me anything about the planets of the solar system.");
    server.enqueue(
      {
        text: "Let me look both up.",
        interleave: true,
        argumentChunk: 3,
        toolCalls: [
          { id: "m", name: "lookup", arguments: { planet: "Mars", fact: "moons" } },
          { id: "j", name: "lookup", arguments: { planet: "Jupiter", fact: "moons" } },
        ],
      },
      { toolCalls: [{ id: "sum", name: "calculator", arguments: '{"expression": "2 + 95"}' }], argumentChunk: 2 },
      {
        text: "Mars and Jupiter have 97 moons together.",
        chunks: ["Mars and Jupiter ", "have 97 moons", " together."],
      },
    );
    const r = await agent.reply(
      "How many moons do Mars and Jupiter have together?",
      JSON.parse(JSON.stringify(first.memory)),
      { trace: (e) => events.push(e) },
    );
    expect(r.reply).toBe("Mars and Jupiter have 97 moons together.");

    expect(server.completions).toHaveLength(3);
    for (let i = 0; i < 3; i++) {
      expect(body(i).stream).toBe(true);
      expect(body(i).tools).toEqual(
        [calculator, lookup, convert].map((t) => ({
          type: "function",
          function: {
            name: t.definition.name,
            description: t.definition.description,
            parameters: t.definition.parameters,
          },
        })),
      );
    }
    // The node's own prompt comes first: the greeting's turn, then the question with the instruction.
    expect(body(0).messages.map((m) => [m.role, m.content])).toEqual([
      [
        "user",
        expect.stringMatching(/^You answer questions about the planets of the solar system\. .*\n\nAgent's reply:$/s),
      ],
      ["assistant", "Ask me anything about the planets of the solar system."],
      [
        "user",
        "User: How many moons do Mars and Jupiter have together?\n\n\n\nInstruction for Agent: Answer the user's question.\nAgent's reply:",
      ],
    ]);
    expect(body(1).messages.at(-3)).toMatchObject({
      role: "assistant",
      content: "Let me look both up.",
      tool_calls: [
        { id: "m", function: { name: "lookup", arguments: '{"planet":"Mars","fact":"moons"}' } },
        { id: "j", function: { name: "lookup" } },
      ],
    });
    expect(toolResults(1)).toEqual([
      ["m", "2"],
      ["j", "95"],
    ]);
    expect(toolResults(2)).toEqual([
      ["m", "2"],
      ["j", "95"],
      ["sum", "97"],
    ]);
    expect(events.filter((e) => e.kind === "tool_call")).toMatchObject([
      { node: "answer", tool: "lookup", id: "m", round: 1, result: 2, loc: { line: 13 } },
      { node: "answer", tool: "lookup", id: "j", round: 1, result: 95 },
      { node: "answer", tool: "calculator", id: "sum", round: 2, result: 97 },
    ]);
    expect(server.pending).toBe(0);
  });

  it("tells the model about unknown tools, malformed arguments and failing tools, and goes on", async () => {
    const chat = new Conversation(await sampleAgent("native-tools", server));
    await chat.say("");
    server.enqueue(
      {
        toolCalls: [
          { id: "s", name: "search", arguments: { query: "Vulcan" } },
          { id: "bad", name: "lookup", arguments: '{"planet": "Vulcan"' },
          { id: "v", name: "lookup", arguments: { planet: "Vulcan" } },
          { id: "u", name: "convert", arguments: { value: 1, from: "km", to: "kg" } },
        ],
      },
      { text: "There is no planet called Vulcan in the solar system." },
    );
    expect(await chat.say("How wide is Vulcan, in miles?")).toBe(
      "There is no planet called Vulcan in the solar system.",
    );
    expect(toolResults(1)).toEqual([
      ["s", "Error: there is no tool named 'search'; the tools are: calculator, lookup, convert"],
      ["bad", expect.stringMatching(/^Error: the arguments are not valid JSON \(.+\); send one JSON object$/)],
      [
        "v",
        "Error: the tool 'lookup' failed: no planet named 'Vulcan' (the planets are Mercury, Venus, Earth, Mars, Jupiter, Saturn, Uranus, Neptune)",
      ],
      ["u", "Error: the tool 'convert' failed: cannot convert length (km) to mass (kg)"],
    ]);
    // The next turn's conversation holds the answer, not the tool traffic.
    server.enqueue({ text: "You're welcome." });
    expect(await chat.say("Thanks!")).toBe("You're welcome.");
    expect(body(2).messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(body(2).messages[3]!.content).toBe("There is no planet called Vulcan in the solar system.");
  });

  it("after maxToolRounds asks for an answer with tools refused; a model that still calls tools fails the turn", async () => {
    const chat = new Conversation(await sampleAgent("native-tools", server, { maxToolRounds: 2 }));
    await chat.say("");
    const call = (id: string) => ({ toolCalls: [{ id, name: "calculator", arguments: { expression: "1 + 1" } }] });
    server.enqueue(call("1"), call("2"), { text: "It is 2." });
    expect(await chat.say("What is 1 + 1?")).toBe("It is 2.");
    expect([0, 1, 2].map((i) => body(i).tool_choice)).toEqual(["auto", "auto", "none"]);

    const before = chat.saved;
    server.enqueue(call("3"), call("4"), call("5"));
    const error = await chat.say("And again?").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({ code: "tool_limit", node: "answer", location: "samples/native-tools/agent.ts:13:7" });
    expect(chat.saved).toBe(before);
    expect(server.pending).toBe(0);
  });
});
