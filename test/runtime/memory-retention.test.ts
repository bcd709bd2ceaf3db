import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { Agent, applyDelta, type Memory } from "@autograms/runtime";
import { TestModel, graph } from "./helpers.js";

// A full collection on demand, without starting the test process with --expose-gc.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const collected = async (ref: WeakRef<object>): Promise<boolean> => {
  // A WeakRef keeps its target until the job that made or read it ends.
  await new Promise((r) => setImmediate(r));
  gc();
  return ref.deref() === undefined;
};

const talk = () =>
  new Agent(graph([{ name: "talk", action: "chat", instruction: "Answer.", transitions: ["talk"] }]), {
    model: new TestModel(() => "ok"),
  });

describe("memory retention", () => {
  it("a conversation's newest memory does not keep its earlier turn lists alive", async () => {
    const agent = talk();
    let memory: Memory | undefined;
    let early: WeakRef<object> | undefined;
    for (let i = 0; i < 60; i++) {
      memory = (await agent.reply(`message ${i}`, memory)).memory;
      if (i === 5) early = new WeakRef(memory.stack[0]!.turns);
    }
    // Each list extends the one before it: held strongly, every earlier list (one of each length)
    // would stay alive with the newest, memory quadratic in the conversation's length.
    expect(await collected(early!)).toBe(true);
    expect(memory!.stack[0]!.turns).toHaveLength(60);
  });

  it("deltas stay right once the list a turn extended is gone", async () => {
    const agent = talk();
    let memory: Memory | undefined;
    let rebuilt: unknown;
    for (let i = 0; i < 40; i++) {
      const before = memory;
      const r = await agent.reply(`message ${i}`, memory);
      rebuilt = applyDelta(before === undefined ? undefined : structuredClone(before), r.delta);
      expect(rebuilt).toEqual(JSON.parse(JSON.stringify(r.memory)));
      memory = r.memory;
      if (i % 10 === 9) gc();
    }
  });
});
