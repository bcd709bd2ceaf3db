import { describe, expect, it } from "vitest";
import { compile } from "@autograms/compiler";
import { Agent, applyDelta, type Memory } from "@autograms/runtime";
import { TestModel, roundTrip } from "./helpers.js";

/**
 * Memory is JSON, which has no `undefined`. A declared variable whose value is `undefined`
 * (`words.find(...)` that finds nothing) stays declared between nodes, as `null`: what the
 * next statement reads of it with `??`, `== null` or `?.` is what JavaScript would give.
 */
const source = `import { Autogram, chatExact } from "@autograms/runtime";

export default class Finder extends Autogram {
  main() {
    chatExact("Say a fruit.");
    const words = ["apple", "banana"];
    const hit = words.find((w) => w === this._last_user_reply);
    let note;
    chatExact(\`Looking for \${this._last_user_reply}.\`);
    const label = hit ?? "nothing";
    chatExact(\`found: \${label}, \${hit?.length ?? 0} letters, \${note == null ? "no note" : note}\`);
  }
}
`;

describe("a declared variable whose value is undefined", () => {
  it("is null at the next nodes and turns, through memory as JSON and as deltas", async () => {
    const { graph, diagnostics } = compile(source, { fileName: "finder.ts" });
    expect(diagnostics).toEqual([]);
    const agent = new Agent(graph!, { model: new TestModel() });
    let memory: Memory = roundTrip((await agent.reply("")).memory);
    let r = await agent.reply("cherry", memory);
    expect(r.reply).toBe("Looking for cherry.");
    const vars = roundTrip(r.memory).stack[0]!.vars;
    expect(vars).toMatchObject({ hit: null, note: null });
    // The memory as a delta from the turn before, applied to that memory read from JSON.
    memory = applyDelta(roundTrip(memory), roundTrip(r.delta));
    r = await agent.reply("go on", roundTrip(memory));
    expect(r.reply).toBe("found: nothing, 0 letters, no note");
  });
});
