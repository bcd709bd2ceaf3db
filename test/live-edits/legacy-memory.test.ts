// Memory saved by builds from before node identities left the code's flow out (shop/memory-v2.json,
// made by that build from shop/agent.ts): its frames hold the hash of the whole node, successors'
// names included. It resumes where those are unchanged, and from its first turn on it holds
// today's identities, so the edit table's rule applies to it from then on.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Agent, type Memory } from "@autograms/runtime";
import { TestModel, roundTrip } from "../runtime/helpers.js";
import { EDITS, NEXT_MESSAGE, SHOP, shopGraph } from "./edit-table.js";

const saved = JSON.parse(readFileSync(new URL("./shop/memory-v2.json", import.meta.url), "utf8")) as Record<
  "checkout" | "pay",
  Memory
>;
const agentFor = (source: string) => new Agent(shopGraph(source), { model: new TestModel() });
const edit = (name: string) => EDITS.find((r) => r.edit === name)!.change(SHOP);

describe("memory saved by an earlier build", () => {
  it("is memory of that version, with whole-node identities", () => {
    expect(saved.checkout).toMatchObject({
      version: 2,
      stack: [{ node: "checkout", id: expect.stringMatching(/^[0-9a-f]{16}$/) }],
    });
  });

  it("resumes on today's build of the same agent, at X and through the call stack", async () => {
    const agent = agentFor(SHOP);
    expect((await agent.reply(NEXT_MESSAGE, roundTrip(saved.checkout))).reply).toBe("Thanks!");
    const paid = await agent.reply(NEXT_MESSAGE, roundTrip(saved.pay));
    expect(paid.reply).toBe("Paid.");
    expect(paid.memory.stack[0]!.id).toMatch(/^2:/);
  });

  it("resumes after an edit that leaves X and its successors' names alone", async () => {
    const agent = agentFor(edit("edit the text of another node"));
    expect((await agent.reply(NEXT_MESSAGE, roundTrip(saved.checkout))).reply).toBe("Thanks!");
    expect((await agent.reply(NEXT_MESSAGE, roundTrip(saved.pay))).reply).toBe("Paid.");
  });

  it("is refused, saying why, where an edit renamed the node after X (what it saved cannot tell)", async () => {
    const agent = agentFor(edit("edit the text of the node after X"));
    await expect(agent.reply(NEXT_MESSAGE, roundTrip(saved.checkout))).rejects.toMatchObject({
      code: "stale_memory",
      message: expect.stringMatching(
        /node 'checkout', where the conversation stands, is not what it was when the memory was saved \(memory saved by an older version/,
      ),
    });
  });

  it("holds today's identities after one turn, so the rule applies to it from then on", async () => {
    const byeEdited = edit("edit the text after the call X's function was called from (call stack)");
    // Saved, the caller's frame names the node after the call ("Bye."), which this edit renames.
    await expect(agentFor(byeEdited).reply(NEXT_MESSAGE, roundTrip(saved.pay))).rejects.toMatchObject({
      code: "stale_memory",
    });
    const { memory } = await agentFor(SHOP).reply(NEXT_MESSAGE, roundTrip(saved.pay));
    expect(memory.stack.map((f) => f.id)).toEqual([expect.stringMatching(/^2:/), expect.stringMatching(/^2:/)]);
    expect((await agentFor(byeEdited).reply("done", roundTrip(memory))).reply).toBe("Goodbye.");
  });
});
