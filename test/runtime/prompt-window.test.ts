/**
 * A turn's prompt is made from the last turn's (the pairs kept, the oldest dropped as the budget
 * requires, older ones taken back where it allows): it must be the prompt that reading the
 * conversation newest first, to the budget, gives (docs/semantics.md#prompts), whatever the room
 * the current input leaves, on memory the runtime sealed and on memory read back from JSON.
 */
import { describe, expect, it } from "vitest";
import { Agent, type AgentConfig, type ChatMessage, type GraphNode, type Memory } from "@autograms/runtime";
import { TestModel, graph, n, roundTrip } from "./helpers.js";

/** Texts of lengths that wander (a seeded generator), so the room left for past pairs grows and shrinks. */
function texts(count: number, seed: number, most: number): string[] {
  let x = seed;
  const next = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
  return Array.from({ length: count }, (_, i) => `${i}:${"word ".repeat(Math.floor(next() * most))}`.trimEnd());
}

const NODES: GraphNode[] = [
  // The user's message before this one, in the instruction: the room left for past pairs shrinks
  // after a long message and grows after a short one (the instruction of a chat that answers a
  // message is not kept in its pair, so the room grows by more than the new pairs take).
  n({
    name: "talk",
    action: "chat",
    instruction: "Answer the user, who said before: ${_last_user_reply}",
    transitions: ["note"],
  }),
  // A thought every turn (its pair goes in the prompt too), and a chat of another category that
  // the scoped chat leaves out.
  n({ name: "note", action: "thought", instruction: "Note what matters.", transitions: ["scoped"] }),
  n({
    name: "scoped",
    action: "chat",
    instruction: "Answer within the lesson.",
    conv_scope: "lesson",
    state_category: "lesson",
    transitions: ["talk"],
  }),
];

/** Each prompt of a conversation played on one agent (prompts made from earlier ones) and, turn by turn, on a new agent (made afresh). */
async function bothWays(config: Partial<AgentConfig>, users: string[], answers: string[], viaJson: boolean) {
  let a = 0;
  const answer = () => answers[a++ % answers.length]!;
  const model = new TestModel(answer);
  const agent = new Agent(graph(NODES, { globals: { _last_user_reply: "" } }), { model, config });
  const fresh: { node: string; messages: ChatMessage[] }[] = [];
  let memory: Memory | undefined;
  for (const text of users) {
    const before = model.completions.length;
    const given = memory && viaJson ? roundTrip(memory) : memory;
    // The same turn on an agent that has made no prompt yet, answering as the first does.
    let b = a;
    const anew = new TestModel(() => answers[b++ % answers.length]!);
    await new Agent(graph(NODES, { globals: { _last_user_reply: "" } }), { model: anew, config }).reply(
      text,
      memory && roundTrip(memory),
    );
    fresh.push(...anew.completions.map(({ node, messages }) => ({ node, messages })));
    memory = (await agent.reply(text, given)).memory;
    expect(model.completions.length - before).toBe(anew.completions.length);
  }
  return { made: model.completions.map(({ node, messages }) => ({ node, messages })), fresh };
}

describe("a prompt made from the last turn's", () => {
  for (const viaJson of [false, true]) {
    it(`is the prompt read afresh, the room growing and shrinking (memory ${viaJson ? "from JSON" : "sealed"})`, async () => {
      const users = texts(120, 7, 120);
      const answers = texts(50, 11, 60);
      const { made, fresh } = await bothWays({ maxInputTokens: 600 }, users, answers, viaJson);
      expect(made.length).toBe(180);
      expect(made).toEqual(fresh);
      // The budget was felt: the oldest pairs dropped out, and came back when the room grew.
      const pairs = made.filter((c) => c.node === "talk").map((c) => (c.messages.length - 1) / 2);
      expect(Math.max(...pairs)).toBeLessThan(60);
      expect(pairs.some((k, i) => i > 0 && k < pairs[i - 1]!)).toBe(true);
      expect(pairs.some((k, i) => i > 20 && k > pairs[i - 1]! + 1)).toBe(true);
    });
  }

  it("holds every pair while they fit, one more each turn", async () => {
    const users = texts(60, 3, 10);
    const { made, fresh } = await bothWays({ maxInputTokens: 1_000_000 }, users, ["yes", "no"], false);
    expect(made).toEqual(fresh);
    // The unscoped chat sees every pair before it (three a round), the scoped one its own only.
    const pairs = (node: string) => made.filter((c) => c.node === node).map((c) => (c.messages.length - 1) / 2);
    expect(pairs("talk")).toEqual(pairs("talk").map((_, t) => 3 * t));
    expect(pairs("scoped")).toEqual(pairs("scoped").map((_, t) => t));
  });

  it("gives each prompt messages of its own: a model that changes them changes no later prompt", async () => {
    const seen: string[][] = [];
    const nodes = [
      n({ name: "talk", action: "chat", instruction: "Answer the user.", transitions: ["again"] }),
      n({ name: "again", action: "chat", instruction: "Go on.", transitions: ["talk"] }),
    ];
    const agent = new Agent(graph(nodes), {
      model: {
        complete: async (req) => {
          seen.push(req.messages.map((m) => m.content));
          // A model that rewrites what it is given, in place.
          for (const m of req.messages) m.content = m.content.toUpperCase();
          req.messages.push({ role: "user", content: "extra" });
          return `reply ${seen.length}`;
        },
        choose: async () => 0,
      },
    });
    let memory: Memory | undefined;
    for (const text of ["one", "two", "three", "four"]) memory = (await agent.reply(text, memory)).memory;
    expect(seen.at(-1)).toEqual([
      "You are an agent.\n\nUser: one\nAgent's reply:",
      "reply 1",
      "User: two\nAgent's reply:",
      "reply 2",
      "User: three\nAgent's reply:",
      "reply 3",
      "User: four\n\n\n\nInstruction for Agent: Go on.\nAgent's reply:",
    ]);
  });
});
