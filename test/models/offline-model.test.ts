import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import {
  Agent,
  replayConversation,
  type Graph,
  type ToolChatMessage,
  type ToolCompletionRequest,
  type TraceEvent,
} from "@autograms/runtime";
import { OfflineModel } from "../../runtime/src/model/index.js";
import { calculator, convert as unitConvert, lookup as planetLookup } from "../../samples/react-tools/tools.js";

const model = new OfflineModel();
const turn = (user: string, instruction: string) =>
  `You are a patient maths tutor.\n\nUser: ${user}\n\n\n\nInstruction for Agent: ${instruction}\nAgent's reply:`;
const complete = (content: string, purpose: "chat" | "thought" | "user" = "chat") =>
  model.complete({ node: "n", purpose, messages: [{ role: "user", content }] });
const classify = (user: string, choices: string[]) =>
  model.choose({
    node: "n",
    choices,
    prompt: `I need you to solve a multiple choice question.\n\n\nShall we start?\n\nUser: ${user}\n\n\n\nIs the user ready?\n`,
  });

describe("OfflineModel.complete", () => {
  it("says, plainly canned, what it was told to do, after the user's words", async () => {
    expect(await complete(turn("hi, I'm ready", "Give the user this problem: 1/2 + 1/3"))).toBe(
      '(offline) You said "hi, I\'m ready". Next I would give the user this problem: 1/2 + 1/3.',
    );
    expect(await complete("Instruction for Agent: Greet the user.\nAgent's reply:")).toBe(
      "(offline) I would greet the user.",
    );
  });

  it("is deterministic", async () => {
    const prompt = turn("what is a fraction?", "Explain fractions simply.");
    expect(await complete(prompt)).toBe(await complete(prompt));
  });

  it("answers a thought that asks for one of some quoted words with one of them", async () => {
    expect(
      await complete(turn("it is 5/6", 'Problem: 1/2+1/3. Reply "correct" or "wrong" for the last answer.'), "thought"),
    ).toBe("correct");
    expect(await complete(turn("I got it wrong", 'Reply "correct" or "wrong".'), "thought")).toBe("wrong");
    expect(await complete(turn("x", "Write one short problem about adding fractions."), "thought")).toBe(
      "(offline) Write one short problem about adding fractions.",
    );
  });

  it("plays a simulated user", async () => {
    expect(await complete("Shall we start?\n\nInstruction for user: Say you are ready\nUser's reply:", "user")).toBe(
      "(offline user) Say you are ready.",
    );
  });

  it("copes with a prompt in no known layout", async () => {
    expect(await complete("just some text")).toBe(
      '(offline) You said "just some text". I have no model to answer with.',
    );
    expect(await model.complete({ node: "n", purpose: "chat", messages: [] })).toBe(
      "(offline) I have no model to answer with.",
    );
  });
});

describe("OfflineModel streaming", () => {
  it("writes its answer word by word to onText, the same answer as without", async () => {
    const prompt = turn("hi  there", "Greet the user warmly.");
    const words: string[] = [];
    const streamed = await model.complete({
      node: "n",
      purpose: "chat",
      messages: [{ role: "user", content: prompt }],
      onText: (w) => words.push(w),
    });
    expect(streamed).toBe(await complete(prompt));
    expect(words.join("")).toBe(streamed);
    expect(words.slice(0, 3)).toEqual(["(offline) ", "You ", "said "]);
    expect(words.every((w) => /^\S+\s*$/.test(w))).toBe(true);
  });

  it("pauses between words when asked, and stops writing when its caller gives up", async () => {
    const slow = new OfflineModel({ wordDelayMs: 30 });
    const words: string[] = [];
    const started = Date.now();
    const abandon = new AbortController();
    const answer = slow.complete({
      node: "n",
      purpose: "chat",
      messages: [{ role: "user", content: turn("hi", "Greet the user warmly and at length.") }],
      onText: (w) => {
        words.push(w);
        if (words.length === 3) abandon.abort();
      },
      signal: abandon.signal,
    });
    expect(await answer).toMatch(/^\(offline\) You said "hi"/);
    expect(words).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    expect(() => new OfflineModel({ wordDelayMs: -1 })).toThrow(
      "OfflineModel: wordDelayMs takes milliseconds (0 or more), not -1",
    );
  });
});

describe("OfflineModel.choose", () => {
  it("reads yes and no words", async () => {
    expect(await classify("sure, let's go", ["yes", "no"])).toBe(0);
    expect(await classify("no, not yet", ["yes", "no"])).toBe(1);
    expect(await classify("No thanks", ["No", "Yes"])).toBe(0);
  });

  it("picks the answer that shares the most words with the user's text", async () => {
    expect(
      await classify("can we talk about football instead", [
        "The user wants to stop.",
        "The user wants to talk about sports or football.",
        "None of the above.",
      ]),
    ).toBe(1);
  });

  it("falls back to None of the above, else the first answer", async () => {
    expect(await classify("hmm", ["The user wants to change the topic.", "None of the above."])).toBe(1);
    expect(await classify("hmm", ["maybe", "perhaps"])).toBe(0);
    expect(await model.choose({ node: "n", prompt: "No user here", choices: ["a", "b"] })).toBe(0);
  });
});

describe("OfflineModel.completeWithTools", () => {
  const lookup = {
    name: "lookup",
    description: "Planet facts.",
    parameters: {
      type: "object",
      properties: { planet: { type: "string" }, fact: { type: "string" } },
      required: ["planet"],
    },
  };
  const convert = {
    name: "convert",
    parameters: {
      type: "object",
      properties: {
        value: { type: "number" },
        from: { type: "string" },
        to: { type: "string" },
        exact: { type: "boolean" },
      },
      required: ["value", "from", "to"],
    },
  };
  const tools = [lookup, convert];
  const ask = (user: string, extra: Partial<ToolCompletionRequest> = {}) =>
    model.completeWithTools({
      node: "n",
      tools,
      messages: [{ role: "user", content: turn(user, "Answer the user's question.") }],
      ...extra,
    });

  it("answers in text, without calls, when the user names no tool with its arguments, and says how to ask", async () => {
    const advice =
      " (Offline, I call a tool only when you name it with its arguments: lookup planet=…, convert value=… from=… to=….)";
    expect(await ask("How many moons does Mars have?")).toEqual({
      text: `(offline) You said "How many moons does Mars have?". Next I would answer the user's question.${advice}`,
      toolCalls: [],
      finishReason: "stop",
    });
    // Named, but a required argument is missing: no call either.
    expect((await ask("convert value=3 from=km")).toolCalls).toEqual([]);
    expect(await ask("lookup planet=Mars")).toEqual(await ask("lookup planet=Mars"));
  });

  it("calls the tools the user names with their arguments, typed as their schemas say, in the order named", async () => {
    const r = await ask(
      'Convert value=2.5 from=km to="mi" exact=true, then LOOKUP planet=Mars fact=moons. lookups=3 nothing=1',
    );
    expect(r).toEqual({
      text: "",
      finishReason: "tool_calls",
      toolCalls: [
        { id: "offline_call_1", name: "convert", arguments: '{"value":2.5,"from":"km","to":"mi","exact":true}' },
        { id: "offline_call_2", name: "lookup", arguments: '{"planet":"Mars","fact":"moons"}' },
      ],
    });
    // A value that is not of the schema's type is passed as written: the tool says what is wrong.
    expect((await ask("convert value=lots from=km to=mi")).toolCalls[0]!.arguments).toBe(
      '{"value":"lots","from":"km","to":"mi"}',
    );
    expect((await ask("a lookup-table please, planet=Mars")).toolCalls).toEqual([]);
  });

  it("calls no tool the request does not allow", async () => {
    expect((await ask("lookup planet=Mars", { toolChoice: "none" })).toolCalls).toEqual([]);
    expect((await ask("lookup planet=Mars", { toolChoice: "none" })).text).not.toContain("Offline, I call");
    const forced = await ask("lookup planet=Mars convert value=1 from=km to=m", { toolChoice: { name: "convert" } });
    expect(forced.toolCalls.map((c) => c.name)).toEqual(["convert"]);
  });

  it("answers with the results once the calls are answered, failures included", async () => {
    const first = await ask("lookup planet=Mars fact=moons lookup planet=Vulcan");
    expect(first.toolCalls.map((c) => c.arguments)).toEqual([
      '{"planet":"Mars","fact":"moons"}',
      '{"planet":"Vulcan"}',
    ]);
    const messages: ToolChatMessage[] = [
      { role: "user", content: turn("lookup planet=Mars fact=moons lookup planet=Vulcan", "Answer.") },
      { role: "assistant", content: null, toolCalls: first.toolCalls },
      { role: "tool", toolCallId: "offline_call_1", content: "2" },
      { role: "tool", toolCallId: "offline_call_2", content: "Error: no planet named 'Vulcan'" },
    ];
    const streamed: string[] = [];
    const r = await model.completeWithTools({
      node: "n",
      tools,
      messages,
      stream: true,
      onText: (t) => streamed.push(t),
    });
    expect(r).toEqual({
      text: `(offline) You said "lookup planet=Mars fact=moons lookup planet=Vulcan". The tools answered: lookup {"planet":"Mars","fact":"moons"} gave 2; lookup {"planet":"Vulcan"} failed: no planet named 'Vulcan'.`,
      toolCalls: [],
      finishReason: "stop",
    });
    expect(streamed.join("")).toBe(r.text);
    expect(streamed.length).toBeGreaterThan(10);
  });

  it("runs samples/native-tools offline, and the recorded conversation replays", async () => {
    const graph = JSON.parse(
      readFileSync(new URL("../../samples/native-tools/agent.graph.json", import.meta.url), "utf8"),
    ) as Graph;
    const agentTools = { calculator, lookup: planetLookup, convert: unitConvert };
    const agent = new Agent(graph, { model: new OfflineModel(), tools: agentTools });
    const events: TraceEvent[] = [];
    const trace = (e: TraceEvent) => events.push(e);
    const greeting = await agent.reply("", undefined, { trace });
    const plain = await agent.reply("How many moons does Mars have?", greeting.memory, { trace });
    expect(plain.reply).toMatch(
      /^\(offline\) You said "How many moons does Mars have\?"\. Next I would answer the user's question\. \(Offline, I call a tool only when you name it with its arguments: calculator expression=…, lookup planet=…, convert value=… from=… to=…\.\)$/,
    );
    const used = await agent.reply('lookup planet=Mars fact=moons calculator expression="2*95"', plain.memory, {
      trace,
    });
    expect(used.reply).toBe(
      `(offline) You said "lookup planet=Mars fact=moons calculator expression="2*95"". The tools answered: lookup {"planet":"Mars","fact":"moons"} gave 2; calculator {"expression":"2*95"} gave 190.`,
    );
    expect(
      events.filter((e) => e.kind === "tool_call").map((e) => e.kind === "tool_call" && [e.tool, e.result]),
    ).toEqual([
      ["lookup", 2],
      ["calculator", 190],
    ]);

    const replies: (string | null)[] = [];
    for await (const t of replayConversation(graph, events, { tools: agentTools })) replies.push(t.reply);
    expect(replies).toEqual([greeting.reply, plain.reply, used.reply]);
  });
});
