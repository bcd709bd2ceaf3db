// Every sample's recorded conversation (samples/*/conversation.json), run by the runtime on the
// sample's compiled graph: the replies, the function results and the globals left at the end.
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { Agent, type ChatModel, type Graph, type Memory } from "@autograms/runtime";
import { OfflineModel, ScriptedModel } from "../../runtime/src/model/index.js";
import { roundTrip } from "./helpers.js";

interface Conversation {
  model: "offline" | "scripted" | "none";
  turns?: { user: string; agent: string | null; complete?: string[]; choose?: string[] }[];
  calls?: { function: string; args: unknown[]; result: unknown }[];
  finalGlobals?: Record<string, unknown>;
}

const root = new URL("../../samples/", import.meta.url);
const samples = readdirSync(root).filter((d) => existsSync(new URL(`${d}/conversation.json`, root)));
const read = <T>(path: string): T => JSON.parse(readFileSync(new URL(path, root), "utf8")) as T;

const refuse: ChatModel = {
  complete: async () => { throw new Error("this sample uses no model"); },
  choose: async () => { throw new Error("this sample uses no model"); },
};

function modelFor(c: Conversation): ChatModel {
  if (c.model === "offline") return new OfflineModel();
  if (c.model === "scripted") {
    return new ScriptedModel({ complete: c.turns!.flatMap((t) => t.complete ?? []), choose: c.turns!.flatMap((t) => t.choose ?? []) });
  }
  return refuse;
}

describe("samples run end to end", () => {
  it("has recorded conversations to run", () => expect(samples.length).toBeGreaterThanOrEqual(3));

  for (const name of samples) {
    it(name, async () => {
      const conversation = read<Conversation>(`${name}/conversation.json`);
      const agent = new Agent(read<Graph>(`${name}/agent.graph.json`), { model: modelFor(conversation) });
      for (const c of conversation.calls ?? []) expect({ [c.function]: await agent.call(c.function, c.args as never) }).toEqual({ [c.function]: c.result });
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
