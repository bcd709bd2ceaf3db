// Runs a scripted conversation against the agent: the model's answers are fixed, so the test
// checks the agent's own logic (its lines, where each answer leads) without a network.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compile } from "@autograms/compiler";
import { Agent, ScriptedModel, type Graph } from "@autograms/runtime";

function compileAgent(): Graph {
  const source = readFileSync(new URL("../agent.ts", import.meta.url), "utf8");
  const { graph, diagnostics } = compile(source, { fileName: "agent.ts" });
  expect(diagnostics.map((d) => `agent.ts:${d.line}:${d.column} ${d.message}`)).toEqual([]);
  return graph!;
}

describe("the agent", () => {
  it("tells a fact on the topic the user picks and says goodbye when they have had enough", async () => {
    // choose() answers the transition questions in order; complete() writes the model's replies.
    const model = new ScriptedModel({
      choose: ["space", "no"],
      complete: ["Venus spins backwards, so its sun rises in the west. Another one?"],
    });
    const agent = new Agent(compileAgent(), { model });

    let turn = await agent.reply("");
    expect(turn.reply).toBe("Hi! I tell one-sentence facts. Would you like one about space or about the ocean?");
    turn = await agent.reply("space, please", turn.memory);
    expect(turn.reply).toBe("Venus spins backwards, so its sun rises in the west. Another one?");
    turn = await agent.reply("no, thanks", turn.memory);
    expect(turn.reply).toBe("Thanks for listening. Goodbye!");
    // Every scripted answer was used: the conversation took the path the test describes.
    expect(model.remaining).toEqual({ complete: 0, choose: 0, tools: 0 });
  });
});
