import { describe, expect, it } from "vitest";
import { Agent, type GraphNode, type TraceEvent } from "@autograms/runtime";
import { compile } from "@autograms/compiler";
import { TestModel, collect, graph, pickByText, n } from "./helpers.js";

const loc = { line: 4, column: 2, endLine: 4, endColumn: 20 };

describe("trace events", () => {
  it("reports one event per step: actions, calls, returns, transitions, with decisions and changes", async () => {
    const g = graph(
      [
        n({ name: "init", action: "code", instruction: "let n = 1", transitions: ["ask"], loc }),
        n({
          name: "ask",
          action: "chat",
          instruction: "Ask.",
          transitions: ["call", "ask"],
          transition_question: "Go on?",
          transition_choices: ["yes", "no"],
        }),
        n({ name: "call", action: "local_function", instruction: "f(n)", assign: "r", transitions: ["quit"] }),
        n({ name: "f", action: "thought_exact", instruction: "got $x", transitions: ["return x + 1"] }),
      ],
      { functions: { f: { kind: "local_function", params: ["x"], entry: "f" } } },
    );
    const agent = new Agent(g, { model: new TestModel(() => "Ready?", pickByText("yes")) });
    const one = collect();
    const r = await agent.reply("", undefined, { trace: one.trace });
    expect(one.events.map((e) => [e.kind, e.node])).toEqual([
      ["code", "init"],
      ["transition", "init"],
      ["generate", "ask"],
    ]);
    expect(one.events[0]).toEqual({
      kind: "code",
      node: "init",
      loc,
      action: "code",
      stack: ["main"],
      code: "let n = 1",
      value: 1,
      changes: [{ name: "n", after: 1 }],
    } satisfies TraceEvent);
    expect(one.events[2]).toMatchObject({
      kind: "generate",
      purpose: "chat",
      raw: ["Ready?"],
      output: "Ready?",
      messages: [{ role: "user", content: "You are an agent.\n\n\n\nInstruction for Agent: Ask.\nAgent's reply:" }],
    });

    const two = collect();
    const done = await agent.reply("yes", r.memory, { trace: two.trace });
    expect(done.done).toBe(true);
    expect(two.events.map((e) => e.kind)).toEqual(["user", "transition", "call", "exact", "return", "quit"]);
    const [user, transition, call, exact, ret, quit] = two.events as TraceEvent[];
    expect(user).toMatchObject({
      node: "ask",
      text: "yes",
      changes: [{ name: "_last_user_reply", before: "", after: "yes" }],
    });
    expect(transition).toMatchObject({
      target: "call",
      to: "call",
      resolved: "name",
      decisions: [{ purpose: "transition", choices: ["yes", "no"], chosen: 0 }],
    });
    expect(transition!.kind === "transition" && transition.decisions[0]!.prompt).toContain("Go on?\n (Yes or No)");
    expect(call).toMatchObject({ function: "f", args: [1], stack: ["main", "f"] });
    expect(exact).toMatchObject({ node: "f", output: "got 1", stack: ["main", "f"] });
    expect(ret).toMatchObject({
      function: "f",
      value: 2,
      to: "call",
      stack: ["main", "f"],
      changes: [{ name: "r", after: 2 }],
    });
    expect(quit).toMatchObject({ node: "call", stack: ["main"] });
  });

  it("reports how wildcard and visit targets were resolved", async () => {
    const g = graph([
      n({ name: "v", action: "code", instruction: "let to = 'w'", transitions: ["$to"] }),
      n({ name: "w", action: "transition", transitions: ["c.*"] }),
      n({ name: "c.a", action: "transition", boolean_condition: "false", transitions: ["x.n"] }),
      n({ name: "c.b", action: "transition", transitions: ["x.n"] }),
      n({ name: "x.1", action: "chat_exact", instruction: "one" }),
    ]);
    const { events, trace } = collect();
    await new Agent(g, { model: new TestModel() }).reply("", undefined, { trace });
    expect(
      events.filter((e) => e.kind === "transition").map((e) => e.kind === "transition" && [e.target, e.to, e.resolved]),
    ).toEqual([
      ["$to", "w", "variable"],
      ["c.*", "c.b", "condition"],
      ["x.n", "x.1", "visit"],
    ]);
  });

  it("reports the variable a return assigns in the caller, with its value before", async () => {
    const source = [
      'import { Autogram, localFunction } from "@autograms/runtime";',
      "export default class A extends Autogram {",
      "  total = 1;",
      "  main() {",
      "    const x = this.double(this.total);",
      "    this.total = this.double(x);",
      "  }",
      "  @localFunction double(n: number): number {",
      "    return n * 2;",
      "  }",
      "}",
    ].join("\n");
    const { graph: g, diagnostics } = compile(source, { fileName: "a.ts" });
    expect(diagnostics).toEqual([]);
    const { events, trace } = collect();
    await new Agent(g!, { model: new TestModel() }).reply("", undefined, { trace });
    const returns = events.filter((e) => e.kind === "return");
    expect(returns.map((e) => [e.node, e.stack, e.changes])).toEqual([
      [expect.any(String), ["main", "double"], [{ name: "x", after: 2 }]],
      [expect.any(String), ["main", "double"], [{ name: "total", before: 1, after: 4 }]],
    ]);
  });

  it("reports what a global function's return hands to its caller, and an unchanged variable not at all", async () => {
    const g = graph(
      [
        n({ name: "m", action: "code", instruction: "let kept = 5; let seen = 0", transitions: ["c"] }),
        n({ name: "c", action: "global_function", instruction: "g(1)", assign: "out", transitions: ["again"] }),
        n({ name: "again", action: "local_function", instruction: "same()", assign: "kept", transitions: ["quit"] }),
        n({ name: "g", action: "code", instruction: "seen = p + 1", transitions: ["return 'done'"] }),
        n({ name: "same", action: "transition", transitions: ["return 5"] }),
      ],
      {
        start: "m",
        functions: {
          g: { kind: "global_function", params: ["p"], entry: "g" },
          same: { kind: "local_function", params: [], entry: "same" },
        },
      },
    );
    const { events, trace } = collect();
    await new Agent(g, { model: new TestModel() }).reply("", undefined, { trace });
    const returns = events.filter((e) => e.kind === "return");
    expect(returns.map((e) => e.changes)).toEqual([
      [
        { name: "p", after: 1 },
        { name: "seen", before: 0, after: 2 },
        { name: "out", after: "done" },
      ],
      [],
    ]);
  });

  it("reports the null a skipped call assigns", async () => {
    const g = graph(
      [
        n({ name: "m", action: "code", instruction: "let r = 3", transitions: ["c"] }),
        n({
          name: "c",
          action: "local_function",
          instruction: "f()",
          assign: "r",
          required_revisit: ["never"],
          transitions: ["quit"],
        }),
        n({ name: "f", action: "transition", transitions: ["return 1"] }),
        n({ name: "never", action: "transition", transitions: ["quit"] }),
      ],
      { start: "m", functions: { f: { kind: "local_function", params: [], entry: "f" } } },
    );
    const { events, trace } = collect();
    await new Agent(g, { model: new TestModel() }).reply("", undefined, { trace });
    expect(events.find((e) => e.kind === "skip_call")).toMatchObject({
      function: "f",
      changes: [{ name: "r", before: 3, after: null }],
    });
  });

  it("costs nothing when no sink listens (same replies, same memory)", async () => {
    const g = graph([n({ name: "a", action: "chat_exact", instruction: "hi", transitions: ["a"] })]);
    const agent = new Agent(g, { model: new TestModel() });
    const plain = await agent.reply("");
    const traced = await agent.reply("", undefined, { trace: () => {} });
    expect(traced).toEqual(plain);
  });
});
