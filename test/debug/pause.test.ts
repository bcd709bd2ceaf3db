// The pause hook: awaited before every node a run enters, with the frames it enters it with.
import { describe, expect, it } from "vitest";
import { Agent, type PausePoint } from "@autograms/runtime";
import { TestModel, collect, graph, n } from "../runtime/helpers.js";

const g = graph(
  [
    n({ name: "init", action: "code", instruction: "let n = 1", transitions: ["call"] }),
    n({ name: "call", action: "local_function", instruction: "f(n)", assign: "r", transitions: ["ask"] }),
    n({ name: "ask", action: "chat_exact", instruction: "r is $r", transitions: ["quit"] }),
    n({ name: "f", action: "code", instruction: "x + 1", transitions: ["return"] }),
  ],
  { functions: { f: { kind: "local_function", params: ["x"], entry: "f" } } },
);

describe("the pause hook", () => {
  it("is awaited before each node, with the stack the node runs in", async () => {
    const seen: { node: string; functions: string[]; vars: unknown }[] = [];
    const agent = new Agent(g, { model: new TestModel() });
    const r = await agent.reply("", undefined, {
      pause: async (at: PausePoint) => {
        seen.push({
          node: at.node,
          functions: at.stack.map((f) => f.function ?? "main"),
          vars: { ...at.stack[at.stack.length - 1]!.vars },
        });
      },
    });
    expect(r.reply).toBe("r is 2");
    expect(seen.map((s) => [s.node, s.functions])).toEqual([
      ["init", ["main"]],
      ["call", ["main"]],
      ["f", ["main", "f"]],
      ["ask", ["main"]],
    ]);
    expect(seen[2]!.vars).toEqual({ x: 1 });
    expect(seen[3]!.vars).toMatchObject({ n: 1, r: 2 });
  });

  it("holds the run until it resolves, and the run's events come before the pause that follows them", async () => {
    const order: string[] = [];
    const { trace } = collect();
    let release!: () => void;
    const agent = new Agent(g, { model: new TestModel() });
    const run = agent.reply("", undefined, {
      trace: (e) => {
        trace(e);
        order.push(`event ${e.kind} ${e.node}`);
      },
      pause: (at) => {
        order.push(`pause ${at.node}`);
        if (at.node !== "f") return Promise.resolve();
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    await new Promise((res) => setTimeout(res, 20));
    expect(order[order.length - 1]).toBe("pause f");
    const before = order.length;
    await new Promise((res) => setTimeout(res, 20));
    expect(order.length).toBe(before);
    release();
    expect((await run).reply).toBe("r is 2");
    expect(order).toEqual([
      "pause init",
      "event code init",
      "event transition init",
      "pause call",
      "event call call",
      "pause f",
      "event code f",
      "event return f",
      "event transition call",
      // ask's only way on is quit: taken with its reply, not on the next message.
      "pause ask",
      "event exact ask",
      "event quit ask",
    ]);
  });

  it("pauses in call() too, starting at the function's entry", async () => {
    const nodes: string[] = [];
    const value = await new Agent(g, { model: new TestModel() }).call("f", [41], {
      pause: async (at) => void nodes.push(at.node),
    });
    expect(value).toBe(42);
    expect(nodes).toEqual(["f"]);
  });

  it("lets the run go on at once when it returns nothing, and keeps each point's frames for later", async () => {
    const points: PausePoint[] = [];
    const order: string[] = [];
    const agent = new Agent(g, { model: new TestModel() });
    const r = await agent.reply("", undefined, {
      trace: (e) => void order.push(`event ${e.kind} ${e.node}`),
      pause: (at) => {
        points.push(at);
        order.push(`pause ${at.node}`);
      },
    });
    expect(r.reply).toBe("r is 2");
    expect(order.slice(0, 5)).toEqual([
      "pause init",
      "event code init",
      "event transition init",
      "pause call",
      "event call call",
    ]);
    // Read after the run has moved on: each point still has the frames it was entered with.
    expect(points.map((p) => [p.node, p.stack.map((f) => f.function ?? "main")])).toEqual([
      ["init", ["main"]],
      ["call", ["main"]],
      ["f", ["main", "f"]],
      ["ask", ["main"]],
    ]);
    expect(points[1]!.stack[0]!.vars).toMatchObject({ n: 1 });
    expect(points[1]!.stack[0]!.vars).not.toHaveProperty("r");
    expect(points[2]!.stack[1]!.vars).toEqual({ x: 1 });
  });
});
