// Recursion: a call and a return cost the same at any depth (the stack is persistent, never
// copied), a depth limit stops runaway recursion at a located call, and memory stays plain JSON.
// The cost measured on the clock, at two depths: recursion-cost.slow.ts.
import { describe, expect, it } from "vitest";
import { Agent, type Graph } from "@autograms/runtime";
import { compileProgram } from "../../runtime/src/engine/program.js";
import { step } from "../../runtime/src/engine/step.js";
import { fromFrames, toFrames } from "../../runtime/src/engine/stack.js";
import { defaultConfig } from "../../runtime/src/engine/config.js";
import type { RunState } from "../../runtime/src/engine/state.js";
import { depthGraph } from "./depth-graph.js";
import { TestModel, roundTrip } from "./helpers.js";

describe("recursion", () => {
  it.each(["function", "global_function"] as const)(
    "%s frames, which see their callers, recurse as deep",
    async (kind) => {
      const agent = new Agent(depthGraph(kind), { model: new TestModel() });
      expect(await agent.call("depth", [9_999])).toBe(9_999);
    },
  );

  it("calls and returns without copying the frames below: the step shares them", () => {
    const graph = depthGraph();
    const program = compileProgram(graph, {
      config: defaultConfig,
      limits: undefined,
      maxSteps: 1e6,
      maxCallDepth: 1e6,
      toolNames: [],
      toolDefinitions: {},
    });
    const env = { program, tracing: false };
    const frame = (n: number) => ({
      scope: "local_function" as const,
      function: "depth",
      node: "depth.b",
      id: program.nodes.get("depth.b")!.id,
      vars: { n },
      turns: [],
      prompt: "",
      userPrompt: "",
    });
    const main = { scope: "main" as const, node: "", id: "", vars: {}, turns: [], prompt: "", userPrompt: "" };
    const stack = fromFrames([main, ...Array.from({ length: 1000 }, (_, i) => frame(1000 - i))]);
    const mem = {
      format: "autograms-memory" as const,
      version: 1 as const,
      graph: { agent: "Depth", hash: program.hash },
      turn: 0,
      done: false,
      stack,
      visits: {},
    };
    let state: RunState = {
      mem,
      phase: { kind: "enter", node: "depth" },
      pending: null,
      mode: "call",
      steps: 0,
      decisions: [],
    };
    // Until the next call is pushed: every step keeps the same cell below the top.
    let pushed = false;
    for (let i = 0; i < 20 && !pushed; i++) {
      const next = step(env, state, { kind: "continue" }).state;
      if (next.mem.stack.height === state.mem.stack.height) expect(next.mem.stack.below).toBe(state.mem.stack.below);
      else {
        expect(next.mem.stack.height).toBe(state.mem.stack.height + 1);
        expect(next.mem.stack.below!.below).toBe(state.mem.stack.below);
        pushed = true;
      }
      state = next;
    }
    expect(pushed).toBe(true);
    expect(toFrames(state.mem.stack)).toHaveLength(1002);
  });

  it("stops runaway recursion at 10,000 calls deep by default, with a located error", async () => {
    const agent = new Agent(
      { ...depthGraph(), source: { file: "depth.ts", sha256: "0".repeat(64) } },
      { model: new TestModel() },
    );
    expect(await agent.call("depth", [9_999])).toBe(9_999);
    const error = await agent.call("depth", [10_000]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "recursion_limit", node: "depth.b", file: "depth.ts", line: 7, column: 5 });
    expect(String((error as Error).message)).toMatch(
      /^depth\.ts:7:5: .*10001 function calls deep, past the limit of 10000/,
    );
  });

  it("takes the limit from the agent's limits", async () => {
    const low = new Agent(depthGraph(), { model: new TestModel(), limits: { maxCallDepth: 50 } });
    expect(await low.call("depth", [49])).toBe(49);
    await expect(low.call("depth", [50])).rejects.toMatchObject({ code: "recursion_limit" });
  });

  it("keeps memory plain JSON between turns in the middle of a recursion", async () => {
    // down(n) asks the user at the bottom, then returns through every frame.
    const graph: Graph = {
      format: "autograms-graph",
      version: 1,
      agent: "Down",
      globals: {},
      functions: { down: { kind: "function", params: ["n"], entry: "down" } },
      nodes: [
        { name: "start", action: "local_function", instruction: "down(200)", assign: "total", transitions: ["done"] },
        { name: "done", action: "chat_exact", instruction: "total $total", transitions: ["quit"] },
        { name: "down", action: "transition", transitions: ["down.*"] },
        {
          name: "down.a",
          action: "chat_exact",
          boolean_condition: "n <= 0",
          instruction: "bottom",
          transitions: ["return Number(_last_user_reply)"],
        },
        { name: "down.b", action: "function", instruction: "down(n - 1)", assign: "r", transitions: ["return r + 1"] },
      ],
    } as Graph;
    (graph.nodes[0] as { action: string }).action = "function";
    const agent = new Agent(graph, { model: new TestModel() });
    const first = await agent.reply("");
    expect(first.reply).toBe("bottom");
    const saved = roundTrip(first.memory);
    expect(saved.stack).toHaveLength(202);
    expect(await agent.reply("5", saved)).toMatchObject({ reply: "total 205", done: true });
  });
});
