// Deltas: what each reply changed, which applyDelta turns back into the reply's memory. Checked at
// every turn of every recorded sample conversation, with memory passed back as the object and
// through JSON, and with the deltas themselves through JSON (as a store keeps them).
import { describe, expect, it } from "vitest";
import { Agent, applyDelta, type Graph, type Memory, type MemoryDelta } from "@autograms/runtime";
import { TestModel, fixture, graph, n, pickByText, queue, roundTrip } from "./helpers.js";
import { modelFor, readSample as read, recordedSamples as samples, type Conversation } from "./recorded.js";

/** Runs the turns, checking each delta; the next turn resumes from the memory the delta rebuilt. */
async function checkDeltas(
  agent: Agent,
  users: string[],
  json: boolean,
): Promise<{ memories: Memory[]; deltas: MemoryDelta[] }> {
  let memory: Memory | undefined;
  const memories: Memory[] = [];
  const deltas: MemoryDelta[] = [];
  for (const [i, user] of users.entries()) {
    const given = memory && json ? roundTrip(memory) : memory;
    const r = await agent.reply(user, given);
    expect(roundTrip(r.delta), `turn ${i}: the delta is plain JSON`).toEqual(r.delta);
    const rebuilt = applyDelta(given && (json ? roundTrip(given) : given), json ? roundTrip(r.delta) : r.delta);
    expect(rebuilt, `turn ${i}`).toEqual(r.memory);
    memories.push(r.memory);
    deltas.push(r.delta);
    if (r.done) break;
    memory = rebuilt;
  }
  return { memories, deltas };
}

describe("deltas", () => {
  it("has recorded conversations to check", () => expect(samples.length).toBeGreaterThanOrEqual(3));

  for (const name of samples) {
    for (const json of [false, true]) {
      it(`${name}: applyDelta gives the reply's memory at every turn (${json ? "through JSON" : "objects"})`, async () => {
        const conversation = read<Conversation>(`${name}/conversation.json`);
        const agent = new Agent(read<Graph>(`${name}/agent.graph.json`), { model: modelFor(conversation) });
        const users = (conversation.turns ?? [{ user: "", agent: null }]).map((t) => t.user);
        const { memories } = await checkDeltas(agent, users, json);
        expect(memories.length).toBe(users.length);
      });
    }
  }

  it("holds what changed, not the history: a delta's size does not grow with the conversation", async () => {
    const g = graph([n({ name: "talk", action: "chat", instruction: "Keep talking.", transitions: ["talk"] })]);
    const agent = new Agent(g, { model: new TestModel((req) => `answer ${req.messages.length}`) });
    const users = Array.from({ length: 200 }, (_, i) => `message ${i}`);
    const { memories, deltas } = await checkDeltas(agent, users, false);
    const size = (v: unknown) => JSON.stringify(v).length;
    expect(size(deltas[199])).toBeLessThan(size(deltas[10]) + 20);
    expect(size(deltas[199]) * 20).toBeLessThan(size(memories[199]));
    expect(deltas[199]).toMatchObject({
      base: memories[198]!.checksum,
      checksum: memories[199]!.checksum,
      fields: { turn: 200 },
      stack: {
        length: 1,
        frames: [
          {
            at: 0,
            vars: { set: { _last_user_reply: "message 199" } },
            turns: { keep: 199, add: [{ node: "talk", user: "message 199" }] },
          },
        ],
      },
    });
  });

  it("carries calls and returns: frames pushed, changed and popped (the tutor's functions)", async () => {
    let problem = 0;
    const model = new TestModel((req) => {
      if (req.node === "makeProblem.thought_1") return `problem ${++problem}`;
      if (req.node === "checkAnswer.thought_1") return problem % 2 ? "correct" : "wrong";
      return `reply of ${req.node}`;
    }, pickByText("yes"));
    const agent = new Agent(fixture("tutor"), { model });
    const { memories, deltas } = await checkDeltas(agent, ["", "yes", "3/4", "thanks", "1/2", "ok", "bye"], true);
    const heights = memories.map((m) => m.stack.length);
    expect(new Set(heights).size).toBeGreaterThan(1);
    expect(deltas.some((d, i) => i > 0 && d.stack.frames.some((f) => "frame" in f))).toBe(true);
  });

  it("carries a resume on an edited graph: the new graph identity and the adopted globals", async () => {
    const model = () => new TestModel((req) => `reply of ${req.node}`, pickByText("yes", "yes", "yes"));
    let memory = (await new Agent(fixture("tutor"), { model: model() }).reply("")).memory;
    const edited = fixture("tutor");
    edited.globals.extra = "new field";
    edited.nodes.push(n({ name: "unused", action: "chat_exact", instruction: "never" }));
    const r = await new Agent(edited, { model: model() }).reply("yes", roundTrip(memory));
    expect(r.delta.fields.graph).toEqual(r.memory.graph);
    expect(r.delta.stack.frames[0]).toMatchObject({ at: 0, vars: { set: { extra: "new field" } } });
    expect(applyDelta(roundTrip(memory), roundTrip(r.delta))).toEqual(r.memory);
    memory = r.memory;
  });

  it("refuses to apply a delta to memory it was not made from", async () => {
    const g = graph([
      n({ name: "talk", action: "chat_exact", instruction: "Hi $_last_user_reply", transitions: ["talk"] }),
    ]);
    const agent = new Agent(g, { model: new TestModel() });
    const first = await agent.reply("");
    const second = await agent.reply("a", first.memory);
    const third = await agent.reply("b", second.memory);
    expect(() => applyDelta(first.memory, third.delta)).toThrow(
      /applies to the memory with checksum [0-9a-f]+, not to this one/,
    );
    expect(() => applyDelta(undefined, third.delta)).toThrow(expect.objectContaining({ code: "bad_delta" }));
    expect(() => applyDelta(first.memory, first.delta)).toThrow(/starts a new conversation/);
    expect(applyDelta(undefined, first.delta)).toEqual(first.memory);
  });

  it("refuses what is not a delta, saying what is wrong", () => {
    for (const bad of [
      null,
      "delta",
      { format: "autograms-memory-delta", version: 9 },
      {
        format: "autograms-memory-delta",
        version: 1,
        base: null,
        checksum: "x",
        fields: {},
        stack: { length: 0, frames: [] },
      },
    ]) {
      expect(() => applyDelta(undefined, bad)).toThrow(
        expect.objectContaining({ code: "bad_delta", message: expect.stringMatching(/not a memory delta/) }),
      );
    }
  });

  it("never changes the memory or the delta it is given", async () => {
    const agent = new Agent(fixture("tutor"), {
      model: new TestModel(queue(["p1", "correct", "r1", "r2", "r3"]), pickByText("yes")),
    });
    const first = await agent.reply("");
    const second = await agent.reply("yes", first.memory);
    const [memory, delta] = [JSON.stringify(first.memory), JSON.stringify(second.delta)];
    applyDelta(first.memory, second.delta);
    expect([JSON.stringify(first.memory), JSON.stringify(second.delta)]).toEqual([memory, delta]);
  });

  it("memory rebuilt from a tampered delta is refused by the next reply", async () => {
    const g = graph([
      n({ name: "talk", action: "chat_exact", instruction: "Hi $_last_user_reply", transitions: ["talk"] }),
    ]);
    const agent = new Agent(g, { model: new TestModel() });
    const first = await agent.reply("");
    const second = await agent.reply("Ada", first.memory);
    const forged = roundTrip(second.delta);
    const change = forged.stack.frames[0] as { vars: { set: Record<string, unknown> } };
    change.vars.set._last_user_reply = "Eve";
    const rebuilt = applyDelta(roundTrip(first.memory), forged);
    await expect(agent.reply("next", rebuilt)).rejects.toMatchObject({ code: "tampered_memory" });
  });
});
