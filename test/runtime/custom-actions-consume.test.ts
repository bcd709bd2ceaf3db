// A custom action's result takes the user's message as read without a turn (`consumeReply`): the
// original's node classes do it by returning new_user_reply="" from apply_instruction without
// appending a turn (autograms/nodes/base_node.py:912-935 and autograms/autogram.py:301-311 at
// commit 243158a: the loop then sets user_reply = "" for the nodes after it).
import { describe, expect, it } from "vitest";
import { compile } from "@autograms/compiler";
import { Agent, defineAction, replayConversation, type Graph, type TraceEvent } from "@autograms/runtime";
import { TestModel, queue, roundTrip } from "./helpers.js";

const ACTIONS = `import { defineAction } from "@autograms/runtime";
export const acknowledge = defineAction({
  name: "acknowledge",
  effects: { consumeReply: true, assign: ["said"] },
  instruction: (ctx) => ({ consumeReply: true, assign: { said: ctx.userReply ?? "" } }),
});
`;
// The same definition, as the Agent runs it (the compiler only reads the text above).
const acknowledge = defineAction({
  name: "acknowledge",
  effects: { consumeReply: true, assign: ["said"] },
  instruction: (ctx) => ({ consumeReply: true, assign: { said: ctx.userReply ?? "" } }),
});
// Declares the effect but leaves the message waiting: the usual way, for comparison.
const passOn = defineAction({
  name: "acknowledge",
  effects: { consumeReply: true, assign: ["said"] },
  instruction: (ctx) => ({ assign: { said: ctx.userReply ?? "" } }),
});

function build(main: string, members = ""): Graph {
  const source = `import { Autogram, chat, chatExact, exec_node, func } from "@autograms/runtime";
import { acknowledge } from "./actions.js";
export default class Desk extends Autogram {
  said = "";
${members}
  main() {
${main}
  }
}
`;
  const { graph, diagnostics } = compile(source, {
    fileName: "desk.ts",
    readFile: (p) => (p.endsWith("actions.ts") ? ACTIONS : undefined),
  });
  expect(diagnostics).toEqual([]);
  return graph!;
}

const MAIN = `    chatExact("Tell me anything.");
    exec_node({ action: acknowledge });
    chat("Say that you noted it.");
    chatExact(\`You said: \${this.said}\`);`;

describe("consumeReply: the user's message taken as read without a turn", () => {
  it("the next chat node does not see it as a new message, through JSON memory and replay", async () => {
    const g = build(MAIN);
    expect(g.actions!.acknowledge!.effects).toEqual({ consumeReply: true, assign: ["said"] });
    const run = async (action: typeof acknowledge) => {
      const model = new TestModel(queue(["Noted."]));
      const agent = new Agent(g, { model, actions: [action] });
      const events: TraceEvent[] = [];
      const trace = (e: TraceEvent) => events.push(e);
      const replies: (string | null)[] = [];
      let r = await agent.reply("", undefined, { trace });
      replies.push(r.reply);
      for (const said of ["my card is lost", "thanks"]) {
        r = await agent.reply(said, roundTrip(r.memory), { trace });
        replies.push(r.reply);
      }
      return { model, events, replies, memory: r.memory };
    };
    const taken = await run(acknowledge);
    expect(taken.replies).toEqual(["Tell me anything.", "Noted.", "You said: my card is lost"]);
    // No "User: my card is lost" in the chat node's prompt: the message was taken as read.
    expect(taken.model.completions[0]!.messages).toEqual([
      { role: "user", content: "You are an agent.\n\n\nAgent's reply:" },
      { role: "assistant", content: "Tell me anything." },
      { role: "user", content: "\n\nInstruction for Agent: Say that you noted it.\nAgent's reply:" },
    ]);
    const ack = taken.events.find((e) => e.kind === "custom");
    expect(ack).toMatchObject({ hook: "instruction", consumed: "my card is lost", output: null });
    // No turn holds it; the hook's declared assignment is the node's change.
    expect(taken.memory.stack[0]!.turns.some((t) => t.user === "my card is lost")).toBe(false);
    expect(ack!.changes).toEqual([{ name: "said", before: "", after: "my card is lost" }]);
    // Left waiting, the chat node answers it as the user's new message.
    const waiting = await run(passOn);
    expect(waiting.model.completions[0]!.messages.at(-1)).toEqual({
      role: "user",
      content: "User: my card is lost\n\n\n\nInstruction for Agent: Say that you noted it.\nAgent's reply:",
    });
    // Replayed from the recording, the same conversation.
    const replayed: (string | null)[] = [];
    for await (const turn of replayConversation(g, taken.events, { actions: [acknowledge] })) replayed.push(turn.reply);
    expect(replayed).toEqual(taken.replies);
  });

  it("inside a function, the caller does not get the message back when the function returns", async () => {
    const g = build(
      `    chatExact("Tell me anything.");
    this.absorb();
    chat("Say that you noted it.");`,
      `  @func absorb() { let said = ""; exec_node({ action: acknowledge }); }`,
    );
    const model = new TestModel(queue(["Noted."]));
    const agent = new Agent(g, { model, actions: [acknowledge] });
    const r = await agent.reply("", undefined);
    await agent.reply("my card is lost", roundTrip(r.memory));
    expect(model.completions[0]!.messages.map((m) => m.content).join("|")).not.toContain("my card is lost");
  });

  it("is refused undeclared, with a reply or thought, or not a boolean, at the node", async () => {
    const g = build(MAIN);
    const fails = async (instruction: () => object, effects = { consumeReply: true, assign: ["said"] }) => {
      const d = defineAction({ name: "acknowledge", effects, instruction: instruction as never });
      try {
        const agent = new Agent(g, { model: new TestModel(), actions: [d] });
        await agent.reply("hi", (await agent.reply("")).memory);
        return "no error";
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(await fails(() => ({ reply: "ok", consumeReply: true }))).toMatch(
      /^desk\.ts:8:5: node '[^']+': action 'acknowledge': its instruction hook returned consumeReply with a reply, which consumes the user's message already \(as its turn\)$/,
    );
    // An assignment the action does not declare is only known when the hook returns: at the node.
    expect(await fails(() => ({ assign: { said: "x", secret: 1 } }))).toMatch(
      /^desk\.ts:8:5: node '[^']+': action 'acknowledge': its instruction hook assigned 'secret', which the action does not declare \(effects\.assign: \['said'\]\)$/,
    );
    expect(await fails(() => ({ consumeReply: "yes" }))).toContain(
      "returned a consumeReply that is a string, not a boolean",
    );
    // A definition that does not declare it differs from the graph: compile again, before any node runs.
    expect(await fails(() => ({ consumeReply: true }), { assign: ["said"] } as never)).toContain(
      'the graph was compiled with effects {"consumeReply":true,"assign":["said"]}, the implementation given declares {"assign":["said"]}: compile the agent again',
    );
  });
});
