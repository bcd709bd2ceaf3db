// The edit table (edit-table.ts) on the runtime alone: memory kept as the objects reply() returned,
// and memory that went through JSON.
import { describe, expect, it } from "vitest";
import { Agent, type Graph, type Memory } from "@autograms/runtime";
import { TestModel, roundTrip } from "../runtime/helpers.js";
import { EDITS, NEXT_MESSAGE, SHOP, WAITS, shopGraph, type Wait } from "./edit-table.js";

const agentOf = (graph: Graph) => new Agent(graph, { model: new TestModel() });

async function waitingAt(at: Wait): Promise<Memory> {
  const agent = agentOf(shopGraph(SHOP));
  let memory: Memory | undefined;
  for (const text of WAITS[at]) memory = (await agent.reply(text, memory)).memory;
  return memory!;
}

describe("a conversation waiting at X, after an edit of the agent", () => {
  it("waits where the table says before any edit", async () => {
    const agent = agentOf(shopGraph(SHOP));
    const replies: (string | null)[] = [];
    let memory: Memory | undefined;
    for (const text of WAITS.pay) ({ reply: replies[replies.length], memory } = await agent.reply(text, memory));
    expect(replies).toEqual(["Welcome!", "Ready to check out?", "Thanks!", "Card or cash?"]);
  });

  for (const row of EDITS) {
    for (const mode of ["objects", "JSON"] as const) {
      it(`${row.edit} (waiting at ${row.at}; memory as ${mode})`, async () => {
        const saved = await waitingAt(row.at);
        const edited = agentOf(shopGraph(row.change(SHOP)));
        const turn = edited.reply(NEXT_MESSAGE, mode === "JSON" ? roundTrip(saved) : saved);
        if ("reply" in row.outcome) {
          const { reply, memory } = await turn;
          expect(reply).toBe(row.outcome.reply);
          // The memory is the new build's now: it resumes there again.
          await expect(edited.reply("ok", roundTrip(memory))).resolves.toBeDefined();
        } else {
          await expect(turn).rejects.toMatchObject({
            code: "stale_memory",
            message: expect.stringMatching(row.outcome.stale),
          });
        }
      });
    }
  }
});
