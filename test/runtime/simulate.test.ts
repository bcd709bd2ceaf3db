import { describe, expect, it } from "vitest";
import { Agent, type GraphNode } from "@autograms/runtime";
import { TestModel, graph, queue, n } from "./helpers.js";

const shop = () =>
  graph([
    n({ name: "up", action: "set_user_prompt", instruction: "You are a customer.", transitions: ["up2"] }),
    n({ name: "up2", action: "append_user_prompt", instruction: "You want tea.", transitions: ["greet"] }),
    n({
      name: "greet",
      action: "chat_exact",
      instruction: "Welcome! Tea or coffee?",
      transitions: ["tea", "coffee"],
      transition_question: "What does the user order?",
      transition_choices: ["tea", "coffee"],
      user_instruction_transitions: ["Order tea.", "Order coffee."],
      transition_probs: [0.9, 0.1],
    }),
    n({
      name: "tea",
      action: "chat_exact",
      instruction: "Here is your tea.",
      transitions: ["bye"],
      user_instruction_transitions: ["Say thanks."],
    }),
    n({
      name: "coffee",
      action: "chat_exact",
      instruction: "Here is your coffee.",
      transitions: ["bye"],
      user_instruction_transitions: ["Say thanks."],
    }),
    n({
      name: "bye",
      action: "chat_exact",
      instruction: "Goodbye!",
      transitions: ["quit"],
      user_instruction_transitions: ["<end>"],
    }),
    n({
      name: "leave",
      action: "chat_exact",
      instruction: "Sorry to see you go.",
      transitions: ["quit"],
      condition_interjection: "The user wants to leave.",
      user_interjection: "<end>",
      probability_interjection: 0.5,
    }),
  ]);

describe("user simulation", () => {
  it("samples the transition, follows its user instruction, and shows the conversation from the user's side", async () => {
    const model = new TestModel(
      (req) => (req.purpose === "user" ? "User: **I'd like tea, please.**\n\nExtra musing." : "x"),
      (req) => req.choices.indexOf(req.choices.find((c) => c === "tea" || c === "None of the above.")!),
    );
    const agent = new Agent(shop(), { model });
    const { memory } = await agent.reply("");
    // random 0.6: the interjection (p 0.5) does not fire (and may not before turn 4 anyway); 0.6 < 0.9 picks "tea"
    const user = await agent.simulateUser(memory, { random: queue([0.6]) });
    expect(user).toEqual({ text: "I'd like tea, please.", end: false, instruction: "Order tea." });
    expect(model.completions[0]).toEqual({
      node: "greet",
      purpose: "user",
      messages: [
        {
          role: "user",
          content:
            "You are a customer.\nYou want tea.\n\nAgent: Welcome! Tea or coffee?\n\nInstruction for user: Order tea.\nUser's reply:",
        },
      ],
    });
    const second = await agent.reply(user.text, memory);
    await agent.simulateUser(second.memory, { random: queue([0.6]) });
    expect(model.completions[1]!.messages).toEqual([
      { role: "user", content: "You are a customer.\nYou want tea.\n\nAgent: Welcome! Tea or coffee?" },
      { role: "assistant", content: "I'd like tea, please." },
      { role: "user", content: "Agent: Here is your tea.\n\nInstruction for user: Say thanks.\nUser's reply:" },
    ]);
  });

  it("returns the end signal without asking the model", async () => {
    const model = new TestModel(
      () => "thanks",
      (req) => req.choices.length - 1,
    );
    const agent = new Agent(shop(), { model });
    const sim = await agent.simulate({ random: () => 0.95 });
    expect(sim.ended).toBe("end_signal");
    expect(sim.transcript).toEqual([
      { role: "agent", text: "Welcome! Tea or coffee?" },
      { role: "user", text: "thanks" },
      { role: "agent", text: "Here is your coffee." },
      { role: "user", text: "thanks" },
      { role: "agent", text: "Goodbye!" },
    ]);
    expect(model.completions.every((c) => c.purpose === "user")).toBe(true);
  });

  it("fires interjections by their probability, terminal ones from the third reply or when forced at maxTurns", async () => {
    const g = shop();
    g.nodes.push(
      n({
        name: "cake",
        action: "chat_exact",
        instruction: "We have cake too.",
        transitions: ["greet"],
        condition_interjection: "The user asks about cake.",
        user_interjection: "Ask about cake.",
        probability_interjection: 0.2,
      }),
    );
    const agent = new Agent(g, { model: new TestModel(() => "hm") });
    const { memory } = await agent.reply("");
    // terminal "leave" is skipped at turn 1; "cake" fires at 0.1 < 0.2
    expect(await agent.simulateUser(memory, { random: () => 0.1 })).toMatchObject({
      end: false,
      instruction: "Ask about cake.",
    });
    expect(await agent.simulateUser(memory, { random: () => 0.3 })).toMatchObject({
      end: false,
      instruction: "Order tea.",
    });
    expect(await agent.simulateUser(memory, { random: () => 0.99, maxTurns: 1 })).toEqual({
      text: "<end>",
      end: true,
      instruction: "<end>",
    });
  });

  // The original (commit 243158a): simulate_interjections (autograms/autogram_utils.py:752-781)
  // fires a terminal interjection once the agent has replied min_turns=3 times; a node is
  // terminal when its first simulated answer is '<end>' or its instruction is 'quit'
  // (autograms/nodes/base_node.py:321-327). One whose own interjection is '<end>' is terminal here
  // too (the original let it end a simulation after the first reply: docs/semantics.md).
  it.each([
    ["its interjection is <end>", { user_interjection: "<end>" }],
    [
      "its first simulated answer is <end> (the original's rule)",
      { user_interjection: "Say you must go.", user_instruction_transitions: ["<end>"] },
    ],
    ["its instruction is quit (the original's rule)", { user_interjection: "Say you must go.", instruction: "quit" }],
  ])("lets a terminal interjection end the conversation from the agent's third reply: %s", async (_what, fields) => {
    const g = graph([
      n({ name: "loop", action: "chat_exact", instruction: "more?", transitions: ["loop"] }),
      n({
        name: "leave",
        action: "chat_exact",
        instruction: "bye",
        condition_interjection: "The user wants to leave.",
        probability_interjection: 1,
        ...fields,
      }),
    ]);
    const agent = new Agent(g, {
      model: new TestModel(
        () => "hm",
        (req) => req.choices.length - 1,
      ),
    });
    let memory = (await agent.reply("")).memory;
    const fired: boolean[] = [];
    for (let replies = 1; replies <= 4; replies++) {
      const user = await agent.simulateUser(memory, { random: () => 0.1 });
      fired.push(user.instruction === fields.user_interjection);
      memory = (await agent.reply("hm", memory)).memory;
    }
    expect(fired).toEqual([false, false, true, true]);
  });

  it("talks to the end of the conversation (quit)", async () => {
    const g = graph([
      n({ name: "a", action: "chat", instruction: "Ask a question.", transitions: ["b"] }),
      n({ name: "b", action: "chat", instruction: "Answer it.", transitions: ["quit"] }),
    ]);
    const model = new TestModel((req) => (req.purpose === "user" ? "a user line" : `agent line ${req.node}`));
    const sim = await new Agent(g, { model }).simulate({ random: () => 0.5 });
    expect(sim).toMatchObject({
      ended: "quit",
      transcript: [
        { role: "agent", text: "agent line a" },
        { role: "user", text: "a user line" },
        { role: "agent", text: "agent line b" },
      ],
    });
    expect(sim.memory?.done).toBe(true);
  });

  it("passes the trace and the pause hook to every turn", async () => {
    const g = graph([
      n({ name: "a", action: "chat", instruction: "Ask a question.", transitions: ["b"] }),
      n({ name: "b", action: "chat", instruction: "Answer it.", transitions: ["quit"] }),
    ]);
    const paused: string[] = [];
    const traced: string[] = [];
    const model = new TestModel((req) => (req.purpose === "user" ? "a user line" : `agent line ${req.node}`));
    await new Agent(g, { model }).simulate({
      random: () => 0.5,
      trace: (e) => traced.push(`${e.kind} ${e.node}`),
      pause: async (at) => {
        paused.push(at.node);
      },
    });
    expect(paused).toEqual(["a", "b"]);
    // b's only way on is quit: its reply ends the conversation, with no user line after it.
    expect(traced).toEqual(["generate a", "user a", "transition a", "generate b", "quit b"]);
  });
});
