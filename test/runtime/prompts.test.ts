import { describe, expect, it } from "vitest";
import { Agent, type AgentConfig, type GraphNode } from "@autograms/runtime";
import { TestModel, graph, queue, roundTrip, n } from "./helpers.js";

async function converse(
  nodes: GraphNode[],
  userMessages: string[],
  answers: string[],
  config: Partial<AgentConfig> = {},
) {
  const model = new TestModel(queue(answers));
  const agent = new Agent(graph(nodes), { model, config });
  let memory;
  for (const text of userMessages) memory = (await agent.reply(text, memory && roundTrip(memory))).memory;
  return model.completions.map((c) => c.messages);
}

describe("chat prompts, laid out as the original", () => {
  it("puts the scope prompt before the first input and answers each user message with the template", async () => {
    const calls = await converse(
      [
        n({ name: "p", action: "set_prompt", instruction: "You are a tutor.", transitions: ["greet"] }),
        n({ name: "greet", action: "chat", instruction: "Greet the user.", transitions: ["help"] }),
        n({ name: "help", action: "chat", instruction: "Offer help.", transitions: ["help"] }),
      ],
      ["hi", "I need help"],
      ["Hello!", "Sure."],
    );
    expect(calls[0]).toEqual([
      {
        role: "user",
        content: "You are a tutor.\n\nUser: hi\n\n\n\nInstruction for Agent: Greet the user.\nAgent's reply:",
      },
    ]);
    expect(calls[1]).toEqual([
      { role: "user", content: "You are a tutor.\n\nUser: hi\nAgent's reply:" },
      { role: "assistant", content: "Hello!" },
      { role: "user", content: "User: I need help\n\n\n\nInstruction for Agent: Offer help.\nAgent's reply:" },
    ]);
  });

  it("retains the instructions of thoughts and of chats that answered no message", async () => {
    const calls = await converse(
      [
        n({ name: "open", action: "chat", instruction: "Open the lesson.", transitions: ["plan"] }),
        n({ name: "plan", action: "thought", instruction: "Plan the lesson.", transitions: ["teach"] }),
        n({ name: "teach", action: "chat", instruction: "Teach step one.", transitions: ["quit"] }),
      ],
      ["", "go on"],
      ["Welcome.", "Step one: halves.", "Halves are..."],
    );
    expect(calls[2]).toEqual([
      { role: "user", content: "You are an agent.\n\n\n\nInstruction for Agent: Open the lesson.\nAgent's reply:" },
      { role: "assistant", content: "Welcome." },
      { role: "user", content: "User: go on\n\n\n\nInstruction for Agent: Plan the lesson.\nAgent's reply:" },
      { role: "assistant", content: "Step one: halves." },
      { role: "user", content: "\n\nInstruction for Agent: Teach step one.\nAgent's reply:" },
    ]);
  });

  it("shows exact thoughts as the original's 'Reply with this exact text' instruction, exact chats as their reply", async () => {
    const calls = await converse(
      [
        n({ name: "hello", action: "chat_exact", instruction: "Hello there.", transitions: ["note"] }),
        n({ name: "note", action: "thought_exact", instruction: "The user is new.", transitions: ["ask"] }),
        n({ name: "ask", action: "chat", instruction: "Ask a question.", transitions: ["quit"] }),
      ],
      ["", "hey"],
      ["What brings you here?"],
    );
    expect(calls[0]).toEqual([
      { role: "user", content: "You are an agent.\n\n\nAgent's reply:" },
      { role: "assistant", content: "Hello there." },
      {
        role: "user",
        content: "User: hey\n\n\n\nInstruction for Agent: Reply with this exact text: The user is new.\nAgent's reply:",
      },
      { role: "assistant", content: "The user is new." },
      { role: "user", content: "\n\nInstruction for Agent: Ask a question.\nAgent's reply:" },
    ]);
  });

  it("uses a node's reply_start and instruction_template, and the configured names", async () => {
    const calls = await converse(
      [
        n({
          name: "a",
          action: "chat",
          instruction: "Say hi.",
          reply_start: "Tutor says:",
          instruction_template: "[<agent_name>] <instruction> <last_response>",
          transitions: ["b"],
        }),
        n({ name: "b", action: "chat", instruction: "Go on.", transitions: ["quit"] }),
      ],
      ["yo", "ok"],
      ["Hi!", "On."],
      { agentName: "Tutor", userName: "Student" },
    );
    expect(calls[0]).toEqual([
      { role: "user", content: "You are an agent.\n\n[Tutor] Say hi. Student: yo\n\n\nTutor says:" },
    ]);
    expect(calls[1]).toEqual([
      { role: "user", content: "You are an agent.\n\nStudent: yo\nTutor says:" },
      { role: "assistant", content: "Hi!" },
      { role: "user", content: "Student: ok\n\n\n\nInstruction for Tutor: Go on.\nTutor's reply:" },
    ]);
  });

  it("leaves out the reply start when replyStartType is none", async () => {
    const calls = await converse(
      [
        n({ name: "a", action: "chat", instruction: "Say hi.", transitions: ["b"] }),
        n({ name: "b", action: "chat", instruction: "Go on.", transitions: ["quit"] }),
      ],
      ["yo", "ok"],
      ["Hi!", "On."],
      { replyStartType: "none" },
    );
    expect(calls[1]).toEqual([
      { role: "user", content: "You are an agent.\n\nyo" },
      { role: "assistant", content: "Hi!" },
      { role: "user", content: "ok\n\nInstruction for Agent: Go on." },
    ]);
  });

  it("keeps only the turns of the node's conv_scope category", async () => {
    const calls = await converse(
      [
        n({ name: "a", action: "chat_exact", instruction: "Small talk.", state_category: "chat", transitions: ["b"] }),
        n({
          name: "b",
          action: "chat_exact",
          instruction: "Lesson one.",
          state_category: "lesson",
          transitions: ["c"],
        }),
        n({
          name: "c",
          action: "chat",
          instruction: "Continue the lesson.",
          conv_scope: "lesson",
          transitions: ["quit"],
        }),
      ],
      ["", "fine", "next"],
      ["Lesson two."],
    );
    expect(calls[0]).toEqual([
      { role: "user", content: "You are an agent.\n\nUser: fine\nAgent's reply:" },
      { role: "assistant", content: "Lesson one." },
      { role: "user", content: "User: next\n\n\n\nInstruction for Agent: Continue the lesson.\nAgent's reply:" },
    ]);
  });

  it("drops the oldest turns, then the prompt, then the start of the input to fit the token budget", async () => {
    const nodes = [
      n({ name: "p", action: "set_prompt", instruction: "PROMPT", transitions: ["a"] }),
      n({ name: "a", action: "chat", instruction: "Talk.", transitions: ["a"] }),
    ];
    const countTokens = (t: string) => t.length;
    const current = "User: m4\n\n\n\nInstruction for Agent: Talk.\nAgent's reply:";
    const pair = "User: m3\nAgent's reply:".length + "r3".length;
    const budget = "PROMPT\n\n".length + pair + current.length;
    const calls = await converse(nodes, ["m1", "m2", "m3", "m4"], ["r1", "r2", "r3", "r4"], {
      maxInputTokens: budget,
      countTokens,
    });
    expect(calls[3]).toEqual([
      { role: "user", content: "PROMPT\n\nUser: m3\nAgent's reply:" },
      { role: "assistant", content: "r3" },
      { role: "user", content: current },
    ]);
    const tight = await converse(nodes, ["m1", "m2"], ["r1", "r2"], { maxInputTokens: 20, countTokens });
    expect(tight[1]).toEqual([{ role: "user", content: current.replace("m4", "m2").slice(-20) }]);
  });
});
