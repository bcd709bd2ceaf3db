// Every sample's recorded conversation (samples/*/conversation.json), run by the runtime on the
// sample's compiled graph: the replies, the function results and the globals left at the end.
import { describe, expect, it } from "vitest";
import { Agent, type Graph, type Memory } from "@autograms/runtime";
import { roundTrip } from "./helpers.js";
import { modelFor, readSample as read, recordedSamples as samples, type Conversation } from "./recorded.js";

describe("samples run end to end", () => {
  it("has recorded conversations to run", () => expect(samples.length).toBeGreaterThanOrEqual(3));

  for (const name of samples) {
    it(name, async () => {
      const conversation = read<Conversation>(`${name}/conversation.json`);
      const agent = new Agent(read<Graph>(`${name}/agent.graph.json`), { model: modelFor(conversation) });
      for (const c of conversation.calls ?? [])
        expect({ [c.function]: await agent.call(c.function, c.args as never) }).toEqual({ [c.function]: c.result });
      let memory: Memory | undefined;
      const replies: (string | null)[] = [];
      for (const turn of conversation.turns ?? [{ user: "", agent: null }]) {
        const r = await agent.reply(turn.user, memory && roundTrip(memory));
        replies.push(r.reply);
        memory = r.memory;
      }
      if (conversation.turns) expect(replies).toEqual(conversation.turns.map((t) => t.agent));
      expect(memory!.stack[0]!.vars).toMatchObject(conversation.finalGlobals ?? {});
    });
  }
});
