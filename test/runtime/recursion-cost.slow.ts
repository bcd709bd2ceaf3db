// What a call and a return cost, measured on the clock at two depths: the same at any depth (the
// stack is persistent, never copied). A timing measurement over 22,000 calls, so in the slow tier;
// recursion.test.ts checks the same without the clock (a step shares the frames below it).
import { describe, expect, it } from "vitest";
import { Agent } from "@autograms/runtime";
import { depthGraph } from "./depth-graph.js";
import { TestModel } from "./helpers.js";

describe("recursion", () => {
  it("costs the same per call at any depth: four times as deep takes about four times as long", async () => {
    const agent = new Agent(depthGraph(), { model: new TestModel(), limits: { maxCallDepth: 50_000 } });
    await agent.call("depth", [2_000]);
    const time = async (n: number) => {
      const started = performance.now();
      expect(await agent.call("depth", [n])).toBe(n);
      return performance.now() - started;
    };
    const shallow = await time(4_000);
    const deep = await time(16_000);
    // Linear is 4x; a copy of the stack per step (quadratic) was 16x. The margin is for a busy machine.
    expect(deep).toBeLessThan(9 * shallow + 1_000);
  });
});
