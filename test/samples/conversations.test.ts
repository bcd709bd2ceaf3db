// Each sample's conversation.json, run against the agent's committed graph: the offline model for
// the tutor, a scripted model (answers in the order the agent asks) for the others, and function
// calls for the algorithms.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, OfflineModel, ScriptedModel, type Graph, type JsonValue, type Memory } from "@autograms/runtime";
import { SAMPLES_DIR } from "./samples.js";

interface Turn {
  user: string;
  agent: string | null;
  complete?: string[];
  choose?: string[];
}
interface Conversation {
  model: "offline" | "scripted" | "none";
  turns?: Turn[];
  calls?: { function: string; args: JsonValue[]; result: JsonValue }[];
  finalGlobals?: Record<string, JsonValue>;
}

const read = (name: string, file: string) => JSON.parse(readFileSync(join(SAMPLES_DIR, name, file), "utf8")) as unknown;
const globalsOf = (memory: Memory) => (memory.stack[0] as { vars: Record<string, JsonValue> }).vars;

describe.each(["tutor", "recruiter", "interjections", "prompts"])("sample %s: its conversation.json", (name) => {
  it("gives every reply it records", async () => {
    const conversation = read(name, "conversation.json") as Conversation;
    const turns = conversation.turns as Turn[];
    const model =
      conversation.model === "offline"
        ? new OfflineModel()
        : new ScriptedModel({
            complete: turns.flatMap((t) => t.complete ?? []),
            choose: turns.flatMap((t) => t.choose ?? []),
          });
    const agent = new Agent(read(name, "agent.graph.json") as Graph, { model });
    let memory: Memory | undefined;
    const replies: (string | null)[] = [];
    for (const turn of turns) {
      // Memory travels as plain JSON between turns, as it would between requests.
      const result = await agent.reply(
        turn.user,
        memory === undefined ? undefined : JSON.parse(JSON.stringify(memory)),
      );
      memory = result.memory as Memory;
      replies.push(result.reply);
    }
    expect(replies).toEqual(turns.map((t) => t.agent));
    if (model instanceof ScriptedModel) expect(model.remaining).toMatchObject({ complete: 0, choose: 0 });
    if (conversation.finalGlobals) expect(globalsOf(memory as Memory)).toMatchObject(conversation.finalGlobals);
  });
});

describe("sample algorithms: its conversation.json", () => {
  const conversation = read("algorithms", "conversation.json") as Conversation;
  const agent = new Agent(read("algorithms", "agent.graph.json") as Graph, { model: new OfflineModel() });

  it.each(conversation.calls ?? [])("$function($args) = $result", async (call) => {
    expect(await agent.call(call.function, call.args)).toEqual(call.result);
  });

  it("main() leaves its results in the globals and says nothing", async () => {
    const { reply, memory } = await agent.reply("");
    expect(reply).toBeNull();
    expect(globalsOf(memory as Memory)).toMatchObject(conversation.finalGlobals as Record<string, JsonValue>);
  });
});
