import { describe, expect, it } from "vitest";
import { Agent, AgentError, type GraphNode } from "@autograms/runtime";
import { TestModel, collect, fixture, graph, n } from "./helpers.js";

describe("agent.call", () => {
  it("runs recursive fibonacci to its return value", async () => {
    const agent = new Agent(fixture("fibonacci"), { model: new TestModel() });
    expect(await agent.call("fibonacci", [0])).toBe(0);
    expect(await agent.call("fibonacci", [1])).toBe(1);
    expect(await agent.call("fibonacci", [7])).toBe(13);
    expect(await agent.call("fibonacci", [15])).toBe(610);
  });

  it("runs merge sort (recursion, while loops, array updates)", async () => {
    const agent = new Agent(fixture("merge-sort"), { model: new TestModel() });
    const input = [6, 5, -6, 1, 14, 2000, 3, 2, 100];
    expect(await agent.call("mergeSort", [input])).toEqual([...input].sort((a, b) => a - b));
    expect(input).toEqual([6, 5, -6, 1, 14, 2000, 3, 2, 100]);
    const { events, trace } = collect();
    expect(await agent.call("mergeSort", [[]], { trace })).toEqual([]);
    expect(events.map((e) => e.kind)).toEqual(["pass", "transition", "pass", "return"]);
  });

  it("refuses to reach a chat node, naming it and its location", async () => {
    const g = graph(
      [
        n({ name: "f", action: "code", instruction: "1", transitions: ["talk"] }),
        n({
          name: "talk",
          action: "chat",
          instruction: "Hello.",
          loc: { line: 12, column: 7, endLine: 12, endColumn: 30 },
        }),
      ],
      {
        functions: { f: { kind: "local_function", params: [], entry: "f" } },
        source: { file: "agent.ts", sha256: "0".repeat(64) },
      },
    );
    const err = await new Agent(g, { model: new TestModel() }).call("f").catch((e) => e);
    expect(err).toBeInstanceOf(AgentError);
    expect(err).toMatchObject({
      code: "chat_in_call",
      node: "talk",
      location: "agent.ts:12:7",
      line: 12,
      column: 7,
      file: "agent.ts",
    });
    expect(err.message).toMatch(/^agent\.ts:12:7: node 'talk': agent\.call\(\) reached a chat node/);
  });

  it("lets thoughts ask the model", async () => {
    const g = graph([n({ name: "f", action: "thought", instruction: "Double $x.", transitions: ["return"] })], {
      functions: { f: { kind: "local_function", params: ["x"], entry: "f" } },
    });
    const model = new TestModel((req) => `doubled: ${req.messages[0]!.content.includes("Double 4.")}`);
    expect(await new Agent(g, { model }).call("f", [4])).toBe("doubled: true");
  });

  it("names unknown functions and refuses too many arguments", async () => {
    const agent = new Agent(fixture("fibonacci"), { model: new TestModel() });
    await expect(agent.call("fib", [1])).rejects.toThrow(/no function 'fib' \(it has fibonacci\)/);
    await expect(agent.call("fibonacci", [1, 2])).rejects.toMatchObject({ code: "bad_call" });
  });

  it("stops a graph that loops forever at maxSteps, naming the node", async () => {
    const g = graph([n({ name: "spin", action: "transition", transitions: ["spin"] })], {
      functions: { f: { kind: "local_function", params: [], entry: "spin" } },
    });
    await expect(new Agent(g, { model: new TestModel(), limits: { maxSteps: 1000 } }).call("f")).rejects.toMatchObject({
      code: "step_limit",
      node: "spin",
    });
  });
});
