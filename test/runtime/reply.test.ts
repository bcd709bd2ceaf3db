import { describe, expect, it } from "vitest";
import { Agent, AgentError, conversationsOf, type GraphNode, type TraceEvent } from "@autograms/runtime";
import { TestModel, graph, pickByText, roundTrip, n } from "./helpers.js";

describe("the reply loop", () => {
  it("runs from the start to the first chat node, then resumes there with the user's message", async () => {
    const g = graph([
      n({ name: "count", action: "code", instruction: "let visits = 0", transitions: ["greet"] }),
      n({ name: "greet", action: "chat_exact", instruction: "Hello! What is your name?", transitions: ["store"] }),
      n({ name: "store", action: "code", instruction: "visits = visits + 1", transitions: ["answer"] }),
      n({
        name: "answer",
        action: "chat_exact",
        instruction: "Nice to meet you, $_last_user_reply ($visits).",
        transitions: ["store"],
      }),
    ]);
    const agent = new Agent(g, { model: new TestModel() });
    let r = await agent.reply("");
    expect(r).toMatchObject({ reply: "Hello! What is your name?", done: false });
    r = await agent.reply("Ada", roundTrip(r.memory));
    expect(r.reply).toBe("Nice to meet you, Ada (1).");
    r = await agent.reply("Bob", roundTrip(r.memory));
    expect(r.reply).toBe("Nice to meet you, Bob (2).");
    expect(r.memory.turn).toBe(3);
  });

  it("starts at `start`, else at start1, else at the first node", async () => {
    const nodes = [
      n({ name: "first", action: "chat_exact", instruction: "first" }),
      n({ name: "start1", action: "chat_exact", instruction: "start1" }),
      n({ name: "other", action: "chat_exact", instruction: "other" }),
    ];
    const model = new TestModel();
    expect((await new Agent(graph(nodes, { start: "other" }), { model }).reply("")).reply).toBe("other");
    expect((await new Agent(graph(nodes), { model }).reply("")).reply).toBe("start1");
    expect((await new Agent(graph([nodes[0]!, nodes[2]!]), { model }).reply("")).reply).toBe("first");
  });

  it("ends with done and a null reply at a quit reached after the user's answer, and refuses to go on", async () => {
    const g = graph([
      n({
        name: "ask",
        action: "chat_exact",
        instruction: "Again?",
        transitions: ["again", "quit"],
        transition_question: "Again?",
        transition_choices: ["yes", "no"],
      }),
      n({ name: "again", action: "chat_exact", instruction: "Once more.", transitions: ["ask"] }),
    ]);
    const agent = new Agent(g, { model: new TestModel(undefined, pickByText("no")) });
    const first = await agent.reply("");
    expect(first).toMatchObject({ reply: "Again?", done: false });
    const last = await agent.reply("no", first.memory);
    expect(last).toMatchObject({ reply: null, done: true });
    expect(last.memory.done).toBe(true);
    await expect(agent.reply("more", last.memory)).rejects.toMatchObject({ code: "conversation_over" });
  });

  it("ends with the reply of a chat node whose only transition is quit: done at once, with the goodbye", async () => {
    const g = graph([
      n({ name: "hello", action: "chat_exact", instruction: "Hi.", transitions: ["bye"] }),
      n({ name: "bye", action: "chat_exact", instruction: "Bye.", transitions: ["quit"] }),
    ]);
    const agent = new Agent(g, { model: new TestModel() });
    const events: TraceEvent[] = [];
    const first = await agent.reply("");
    const last = await agent.reply("ok", roundTrip(first.memory), { trace: (e) => events.push(e) });
    expect(last).toMatchObject({ reply: "Bye.", done: true });
    expect(last.memory.done).toBe(true);
    expect(events.map((e) => e.kind)).toEqual(["user", "transition", "exact", "quit"]);
    await expect(agent.reply("more", last.memory)).rejects.toMatchObject({ code: "conversation_over" });
    // A recording of it is one conversation that ended.
    const [conversation, ...others] = conversationsOf(events);
    expect(others).toEqual([]);
    expect(conversation?.done).toBe(true);
  });

  it("does not end at such a node when an interjection could still take the user's answer elsewhere", async () => {
    const g = graph([
      n({ name: "bye", action: "chat_exact", instruction: "Bye.", transitions: ["quit"] }),
      n({
        name: "help",
        action: "chat_exact",
        instruction: "Help is here.",
        transitions: ["quit"],
        condition_interjection: "The user asks for help.",
      }),
    ]);
    const agent = new Agent(g, { model: new TestModel(undefined, pickByText("The user asks for help.")) });
    const first = await agent.reply("");
    expect(first).toMatchObject({ reply: "Bye.", done: false });
    expect(await agent.reply("help!", first.memory)).toMatchObject({ reply: "Help is here.", done: false });
  });

  it("sets _last_user_reply as soon as the message arrives (the original waited for a consuming node)", async () => {
    const g = graph([
      n({ name: "ask", action: "chat_exact", instruction: "Name?", transitions: ["keep"] }),
      n({ name: "keep", action: "code", instruction: "const name = _last_user_reply", transitions: ["say"] }),
      n({ name: "say", action: "chat_exact", instruction: "Hi $name", transitions: ["quit"] }),
    ]);
    const agent = new Agent(g, { model: new TestModel() });
    const r = await agent.reply("Grace", (await agent.reply("")).memory);
    expect(r.reply).toBe("Hi Grace");
  });

  it("assigns every node's output to _last_variable_output, _last_state and its `assign` variable", async () => {
    const g = graph([
      n({ name: "t", action: "thought", instruction: "Think.", assign: "idea", transitions: ["c"] }),
      n({
        name: "c",
        action: "code",
        instruction: "[_last_variable_output, _last_state, idea]",
        assign: "seen",
        transitions: ["show"],
      }),
      n({ name: "show", action: "chat_exact", instruction: "$seen", assign: "said", transitions: ["after"] }),
      n({ name: "after", action: "chat_exact", instruction: "$said / $_last_state", transitions: ["quit"] }),
    ]);
    const agent = new Agent(g, { model: new TestModel(() => "deep") });
    const r1 = await agent.reply("");
    expect(r1.reply).toBe('["deep","t","deep"]');
    const r2 = await agent.reply("x", r1.memory);
    expect(r2.reply).toBe('["deep","t","deep"] / show');
  });

  it("a user message waits for the next chat or thought node, passing over code and transitions", async () => {
    const model = new TestModel((req) => `answer to ${req.messages.at(-1)!.content.split("\n")[0]}`);
    const g = graph([
      n({ name: "ask", action: "chat_exact", instruction: "Question?", transitions: ["calc"] }),
      n({ name: "calc", action: "code", instruction: "1 + 1", transitions: ["hop"] }),
      n({ name: "hop", action: "transition", transitions: ["think"] }),
      n({ name: "think", action: "thought", instruction: "Consider it.", transitions: ["say"] }),
      n({ name: "say", action: "chat", instruction: "Answer.", transitions: ["quit"] }),
    ]);
    const agent = new Agent(g, { model });
    await agent.reply("Because.", (await agent.reply("")).memory);
    expect(model.completions[0]!.messages.at(-1)!.content).toBe(
      "User: Because.\n\n\n\nInstruction for Agent: Consider it.\nAgent's reply:",
    );
    // consumed by the thought: the chat after it sees no user message
    expect(model.completions[1]!.messages.at(-1)!.content).toBe("\n\nInstruction for Agent: Answer.\nAgent's reply:");
  });

  it("rejects a user message that is not a string", async () => {
    const agent = new Agent(graph([n({ name: "a", action: "chat_exact", instruction: "x" })]), {
      model: new TestModel(),
    });
    await expect(agent.reply(42 as unknown as string)).rejects.toBeInstanceOf(AgentError);
  });

  it("follows a chat node's transition with the new message, through the model's choice", async () => {
    const g = graph([
      n({
        name: "ask",
        action: "chat_exact",
        instruction: "Tea or coffee?",
        transitions: ["tea", "coffee"],
        transition_question: "What does the user want?",
        transition_choices: ["tea", "coffee"],
      }),
      n({ name: "tea", action: "chat_exact", instruction: "Tea it is." }),
      n({ name: "coffee", action: "chat_exact", instruction: "Coffee it is." }),
    ]);
    const agent = new Agent(g, { model: new TestModel(undefined, pickByText("coffee")) });
    const r = await agent.reply("coffee please", (await agent.reply("")).memory);
    expect(r.reply).toBe("Coffee it is.");
  });
});
