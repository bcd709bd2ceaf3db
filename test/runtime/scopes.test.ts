import { describe, expect, it } from "vitest";
import { Agent, type FunctionKind, type GraphNode } from "@autograms/runtime";
import { TestModel, collect, fixture, graph, pickByText, roundTrip, n } from "./helpers.js";

/** main: x = "caller", y = 0, calls f(kind) which runs `body`, then shows `show`. */
function scoped(kind: FunctionKind, body: GraphNode[], show: string) {
  return graph(
    [
      n({ name: "init", action: "code", instruction: "let x = 'caller'", transitions: ["init2"] }),
      n({ name: "init2", action: "code", instruction: "let y = 0", transitions: ["call"] }),
      n({ name: "call", action: kind, instruction: "f('arg')", assign: "got", transitions: ["show"] }),
      n({ name: "show", action: "chat_exact", instruction: show }),
      ...body,
    ],
    { functions: { f: { kind, params: ["p"], entry: body[0]!.name } } },
  );
}

describe("variable scopes", () => {
  it("a function's own variable wins over the caller's (the original let the caller's shadow it)", async () => {
    for (const kind of ["function", "global_function"] as const) {
      const g = scoped(
        kind,
        [n({ name: "f", action: "code", instruction: "x = 'callee'", transitions: ["return x"] })],
        "$got",
      );
      expect((await new Agent(g, { model: new TestModel() }).reply("")).reply).toBe("callee");
    }
  });

  it("function reads the caller's variables; its writes are dropped on return", async () => {
    const g = scoped(
      "function",
      [
        n({ name: "f", action: "code", instruction: "y = y + 10", transitions: ["f2"] }),
        n({ name: "f2", action: "transition", transitions: ["return [p, x, y]"] }),
      ],
      "$got / y=$y",
    );
    expect((await new Agent(g, { model: new TestModel() }).reply("")).reply).toBe('["arg","caller",10] / y=0');
  });

  it("global_function's writes (and its parameters) survive the return", async () => {
    const g = scoped(
      "global_function",
      [
        n({ name: "f", action: "code", instruction: "y = y + 10", transitions: ["f2"] }),
        n({ name: "f2", action: "code", instruction: "let z = 'new'", transitions: ["return"] }),
      ],
      "$got / y=$y z=$z p=$p",
    );
    expect((await new Agent(g, { model: new TestModel() }).reply("")).reply).toBe("new / y=10 z=new p=arg");
  });

  it("local_function sees only its arguments", async () => {
    const ok = scoped(
      "local_function",
      [n({ name: "f", action: "transition", transitions: ["return p + '!'"] })],
      "$got",
    );
    expect((await new Agent(ok, { model: new TestModel() }).reply("")).reply).toBe("arg!");
    const peek = scoped("local_function", [n({ name: "f", action: "chat_exact", instruction: "$x" })], "$got");
    await expect(new Agent(peek, { model: new TestModel() }).reply("")).rejects.toMatchObject({
      code: "undefined_variable",
      node: "f",
    });
    const code = scoped(
      "local_function",
      [n({ name: "f", action: "code", instruction: "x + 1", transitions: ["return"] })],
      "$got",
    );
    await expect(new Agent(code, { model: new TestModel() }).reply("")).rejects.toMatchObject({
      code: "sandbox",
      node: "f",
    });
  });

  it("optional parameters left out take their default, else null; missing required ones and extra ones are errors naming the call", async () => {
    const g = graph(
      [
        n({ name: "call", action: "local_function", instruction: "f(1)", assign: "got", transitions: ["show"] }),
        n({ name: "show", action: "chat_exact", instruction: "$got" }),
        n({ name: "f", action: "transition", transitions: ["return [a, b, c]"] }),
      ],
      {
        functions: {
          f: { kind: "local_function", params: ["a", "b", "c"], required: 1, defaults: { b: "two" }, entry: "f" },
        },
      },
    );
    expect((await new Agent(g, { model: new TestModel() }).reply("")).reply).toBe('[1,"two",null]');
    expect(await new Agent(g, { model: new TestModel() }).call("f", [0])).toEqual([0, "two", null]);
    const extra = structuredClone(g);
    extra.nodes[0]!.instruction = "f(1, 2, 3, 4)";
    await expect(new Agent(extra, { model: new TestModel() }).reply("")).rejects.toMatchObject({
      code: "bad_call",
      node: "call",
    });
    const missing = structuredClone(g);
    missing.nodes[0]!.instruction = "f()";
    await expect(new Agent(missing, { model: new TestModel() }).reply("")).rejects.toMatchObject({
      code: "bad_call",
      node: "call",
      detail: "'f' takes 1 to 3 arguments (a, b?, c?), got 0: missing 'a'",
    });
    await expect(new Agent(g, { model: new TestModel() }).call("f", [])).rejects.toMatchObject({ code: "bad_call" });
    // Without `required`, every parameter is required, as in the original.
    const all = structuredClone(g);
    delete all.functions.f!.required;
    await expect(new Agent(all, { model: new TestModel() }).reply("")).rejects.toMatchObject({
      code: "bad_call",
      detail: "'f' takes 3 arguments (a, b, c), got 1: missing 'b', 'c'",
    });
  });
});

describe("conversation and prompts per function kind", () => {
  const body = (kind: FunctionKind) =>
    graph(
      [
        n({ name: "p", action: "set_prompt", instruction: "Main prompt.", transitions: ["hello"] }),
        n({ name: "hello", action: "chat_exact", instruction: "Hello.", transitions: ["call"] }),
        n({ name: "call", action: kind, instruction: "f()", transitions: ["after"] }),
        n({ name: "after", action: "chat", instruction: "After." }),
        n({ name: "f", action: "append_prompt", instruction: "Inside f.", transitions: ["f.t"] }),
        n({ name: "f.t", action: "thought", instruction: "Think in f.", transitions: ["return"] }),
      ],
      { functions: { f: { kind, params: [], entry: "f" } } },
    );

  async function run(kind: FunctionKind) {
    const model = new TestModel((req) => (req.node === "f.t" ? "f thought" : "done"));
    const agent = new Agent(body(kind), { model });
    await agent.reply("hi there", (await agent.reply("")).memory);
    return model.completions.map((c) => c.messages);
  }

  it("local_function: a fresh prompt, no turns; nothing survives", async () => {
    const [inF, after] = await run("local_function");
    expect(inF).toEqual([
      {
        role: "user",
        content:
          "You are an agent.\nInside f.\n\nUser: hi there\n\n\n\nInstruction for Agent: Think in f.\nAgent's reply:",
      },
    ]);
    // The user's message was consumed inside f, whose turns are gone: the caller gets it back.
    expect(after).toEqual([
      { role: "user", content: "Main prompt.\n\n\nAgent's reply:" },
      { role: "assistant", content: "Hello." },
      { role: "user", content: "User: hi there\n\n\n\nInstruction for Agent: After.\nAgent's reply:" },
    ]);
  });

  it("function: the caller's prompt and turns; its own are dropped", async () => {
    const [inF, after] = await run("function");
    expect(inF).toEqual([
      { role: "user", content: "Main prompt.\nInside f.\n\n\nAgent's reply:" },
      { role: "assistant", content: "Hello." },
      { role: "user", content: "User: hi there\n\n\n\nInstruction for Agent: Think in f.\nAgent's reply:" },
    ]);
    expect(after[0]!.content.startsWith("Main prompt.\n\n")).toBe(true);
    expect(after).toHaveLength(3);
    expect(after[2]!.content).toBe("User: hi there\n\n\n\nInstruction for Agent: After.\nAgent's reply:");
  });

  it("global_function: shares the prompt and turns, which survive", async () => {
    const [, after] = await run("global_function");
    expect(after).toEqual([
      { role: "user", content: "Main prompt.\nInside f.\n\n\nAgent's reply:" },
      { role: "assistant", content: "Hello." },
      { role: "user", content: "User: hi there\n\n\n\nInstruction for Agent: Think in f.\nAgent's reply:" },
      { role: "assistant", content: "f thought" },
      { role: "user", content: "\n\nInstruction for Agent: After.\nAgent's reply:" },
    ]);
  });
});

describe("the fraction tutor (global, normal and local functions in one conversation)", () => {
  it("presents each unit's own problem (the original re-presented the first one)", async () => {
    let problem = 0;
    const model = new TestModel((req) => {
      if (req.node === "makeProblem.thought_1") return `problem ${++problem}`;
      if (req.node === "checkAnswer.thought_1") return "correct";
      return `[${req.node}] ${req.messages.at(-1)!.content.split("Instruction for Agent: ")[1]!.split("\n")[0]}`;
    }, pickByText("yes"));
    const agent = new Agent(fixture("tutor"), { model });
    const said: (string | null)[] = [];
    let memory;
    for (const text of ["", "yes", "3/4", "thanks", "1/2", "bye"]) {
      const r = await agent.reply(text, memory && roundTrip(memory));
      said.push(r.reply);
      memory = r.memory;
    }
    expect(said).toEqual([
      "Shall we start?",
      "[doUnit.chat_1] Give the user this problem: problem 1",
      "[doUnit.chat_2] Praise the user.",
      "[doUnit.chat_1] Give the user this problem: problem 2",
      "[doUnit.chat_2] Praise the user.",
      "[main.chat_1] Congratulate the user on finishing 2 units.",
    ]);
    const check = model.completions.find((c) => c.node === "checkAnswer.thought_1")!;
    expect(check.messages).toEqual([
      {
        role: "user",
        content:
          'You are an agent.\n\nUser: 3/4\n\n\n\nInstruction for Agent: Problem: problem 1. Reply "correct" or "wrong" for the user\'s last answer.\nAgent\'s reply:',
      },
    ]);
  });
});

describe("nesting and calls from outside", () => {
  it("a function inside a local_function sees down to the local frame, not past it", async () => {
    const g = graph(
      [
        n({ name: "init", action: "code", instruction: "let secret = 'main only'", transitions: ["call"] }),
        n({ name: "call", action: "local_function", instruction: "outer(1)", assign: "got", transitions: ["show"] }),
        n({ name: "show", action: "chat_exact", instruction: "$got" }),
        n({ name: "outer", action: "function", instruction: "inner()", transitions: ["return"] }),
        n({ name: "inner", action: "code", instruction: "[typeof secret, a]", transitions: ["return"] }),
      ],
      {
        functions: {
          outer: { kind: "local_function", params: ["a"], entry: "outer" },
          inner: { kind: "function", params: [], entry: "inner" },
        },
      },
    );
    expect((await new Agent(g, { model: new TestModel() }).reply("")).reply).toBe('["undefined",1]');
  });

  it("agent.call of a function or global_function reads the globals", async () => {
    const g = graph(
      [
        n({ name: "main", action: "transition", transitions: ["quit"] }),
        n({ name: "f", action: "transition", transitions: ["return rate * x"] }),
      ],
      {
        globals: { rate: 3 },
        functions: {
          f: { kind: "function", params: ["x"], entry: "f" },
          h: { kind: "global_function", params: ["x"], entry: "f" },
        },
      },
    );
    const agent = new Agent(g, { model: new TestModel() });
    expect(await agent.call("f", [5])).toBe(15);
    expect(await agent.call("h", [2])).toBe(6);
  });

  it("required_revisit holds a call back until every listed node was visited", async () => {
    const g = graph(
      [
        n({ name: "ask", action: "chat_exact", instruction: "again?", transitions: ["call"] }),
        n({
          name: "call",
          action: "local_function",
          instruction: "f()",
          assign: "got",
          required_revisit: ["seen"],
          transitions: ["show"],
        }),
        n({ name: "show", action: "chat_exact", instruction: "got ?{$got}", transitions: ["seen"] }),
        n({ name: "seen", action: "transition", transitions: ["ask"] }),
        n({ name: "f", action: "transition", transitions: ["return 'called'"] }),
      ],
      { functions: { f: { kind: "local_function", params: [], entry: "f" } } },
    );
    const agent = new Agent(g, { model: new TestModel() });
    let r = await agent.reply("");
    r = await agent.reply("x", r.memory);
    expect(r.reply).toBe("got ");
    r = await agent.reply("x", r.memory);
    r = await agent.reply("x", r.memory);
    expect(r.reply).toBe("got called");
  });

  it("a variable code sets to undefined stays, as null, whether the code runs in the step or calls a tool", async () => {
    const tools = { lookup: { module: "./tools.js", export: "lookup" } };
    for (const [clear, given] of [
      ["a = undefined", { lookup: () => 1 }],
      ["a = lookup(1)", { lookup: async () => undefined }],
    ] as const) {
      const g = graph(
        [
          n({ name: "init", action: "code", instruction: "let a = 1; let b = 2", transitions: ["test"] }),
          // A condition writes nothing: the frame is left as it is.
          n({ name: "test", action: "transition", transitions: ["test.*"] }),
          n({ name: "test.a", action: "transition", boolean_condition: "a > b", transitions: ["quit"] }),
          n({ name: "test.b", action: "transition", transitions: ["clear"] }),
          n({ name: "clear", action: "code", instruction: clear, transitions: ["show"] }),
          n({ name: "show", action: "chat_exact", instruction: "b=$b" }),
        ],
        { tools },
      );
      const { events, trace } = collect();
      const r = await new Agent(g, { model: new TestModel(), tools: given }).reply("", undefined, { trace });
      expect(r.reply).toBe("b=2");
      const vars = r.memory.stack[0]!.vars;
      expect(vars).toMatchObject({ a: null, b: 2, _last_state: "show" });
      expect(events.find((e) => e.node === "clear" && e.kind === "code")?.changes).toEqual([
        { name: "a", before: 1, after: null },
      ]);
    }
  });
});
