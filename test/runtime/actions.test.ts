import { describe, expect, it } from "vitest";
import { Agent, type GraphNode } from "@autograms/runtime";
import { TestModel, collect, graph, queue, roundTrip, n } from "./helpers.js";

async function first(
  nodes: GraphNode[],
  answers: string[] = [],
  options: Partial<ConstructorParameters<typeof Agent>[1]> = {},
) {
  const model = new TestModel(queue(answers));
  const agent = new Agent(graph(nodes), { model, ...options });
  return { r: await agent.reply(""), model, agent };
}

describe("chat_suffix: the reply always ends with the text", () => {
  const node = n({ name: "s", action: "chat_suffix", instruction: "Shall we continue with fractions?" });

  it("asks with the original's wrapped instruction and keeps a reply that ends right (bold markers removed)", async () => {
    const { r, model } = await first([node], ["Great work! **Shall we continue with fractions?**"]);
    expect(r.reply).toBe("Great work! Shall we continue with fractions?");
    expect(model.completions[0]!.messages[0]!.content).toContain(
      "Instruction for Agent: Respond to the user's last reply, and then include the **bold** text at the end of your response to direct the conversation:**Shall we continue with fractions?**.",
    );
  });

  it("completes a reply that has the beginning of the text", async () => {
    const { r } = await first([node], ["Great work! Shall we continue with fract"]);
    expect(r.reply).toBe("Great work! Shall we continue with fractions?");
  });

  it("generates again, then falls back to the exact text", async () => {
    const { r, model } = await first([node], ["Something else.", "Still wrong."]);
    expect(r.reply).toBe("Shall we continue with fractions?");
    expect(model.completions).toHaveLength(2);
    const again = await first([node], ["Something else.", "Fine. Shall we continue with fractions?"]);
    expect(again.r.reply).toBe("Fine. Shall we continue with fractions?");
  });

  it("never strips text before a colon (the original cut every reply's first 'xxx:')", async () => {
    const { r } = await first(
      [n({ name: "c", action: "chat", instruction: "Tell the time." })],
      ["The meeting is at 10:30 today"],
    );
    expect(r.reply).toBe("The meeting is at 10:30 today");
  });

  it("regenerates answers with banned phrases", async () => {
    const { r, model } = await first(
      [n({ name: "c", action: "chat", instruction: "Hi." })],
      ["As a language model I cannot.", "Hello!"],
      { config: { bannedPhrases: ["language model"] } },
    );
    expect(r.reply).toBe("Hello!");
    expect(model.completions).toHaveLength(2);
  });
});

describe("thoughts", () => {
  it("thought: the answer stays internal; thought_qa: instruction and answer; thought_exact: the text", async () => {
    const { r } = await first(
      [
        n({ name: "t", action: "thought", instruction: "Guess a number.", assign: "a", transitions: ["q"] }),
        n({ name: "q", action: "thought_qa", instruction: "Why $a?", assign: "b", transitions: ["e"] }),
        n({ name: "e", action: "thought_exact", instruction: "Noted $a.", assign: "c", transitions: ["show"] }),
        n({ name: "show", action: "chat_exact", instruction: "${a}|${b}|${c}" }),
      ],
      ["7", "Because."],
    );
    expect(r.reply).toBe("7|Why 7?\n\nBecause.|Noted 7.");
  });

  it("an instruction that is empty once filled in is an error", async () => {
    await expect(
      first([
        n({ name: "v", action: "code", instruction: "let v = ''", transitions: ["t"] }),
        n({ name: "t", action: "thought", instruction: "$v" }),
      ]),
    ).rejects.toMatchObject({ code: "undefined_variable", node: "t" });
  });
});

describe("prompt actions", () => {
  it("set and append the prompt and the user prompt (append_user_prompt appends, unlike the original)", async () => {
    const { r } = await first([
      n({ name: "who", action: "code", instruction: "let who = 'beginners'", transitions: ["p1"] }),
      n({ name: "p1", action: "set_prompt", instruction: "Tutor.", transitions: ["p2"] }),
      n({ name: "p2", action: "append_prompt", instruction: "Be kind to $who.", transitions: ["u1"] }),
      n({ name: "u1", action: "set_user_prompt", instruction: "You are a student.", transitions: ["u2"] }),
      n({ name: "u2", action: "append_user_prompt", instruction: "You like maths.", transitions: ["c"] }),
      n({ name: "c", action: "chat_exact", instruction: "ok" }),
    ]);
    expect(r.memory.stack[0]).toMatchObject({
      prompt: "Tutor.\nBe kind to beginners.",
      userPrompt: "You are a student.\nYou like maths.",
    });
  });

  it("prompt nodes output null", async () => {
    const { r } = await first([
      n({ name: "p", action: "set_prompt", instruction: "x", transitions: ["c"] }),
      n({
        name: "c",
        action: "code",
        instruction: "_last_variable_output === null && _last_state === 'p'",
        assign: "ok",
        transitions: ["s"],
      }),
      n({ name: "s", action: "chat_exact", instruction: "$ok" }),
    ]);
    expect(r.reply).toBe("true");
  });
});

describe("code and tools", () => {
  it("a code node's value is its output; declarations and updates persist across turns", async () => {
    const g = graph([
      n({ name: "d", action: "code", instruction: "let items = [1, 2]", assign: "declared", transitions: ["ask"] }),
      n({ name: "ask", action: "chat_exact", instruction: "$items $declared", transitions: ["push"] }),
      n({ name: "push", action: "code", instruction: "items.push(items.length + 1)", transitions: ["ask"] }),
    ]);
    const agent = new Agent(g, { model: new TestModel() });
    let r = await agent.reply("");
    expect(r.reply).toBe("[1,2] [1,2]");
    r = await agent.reply("more", roundTrip(r.memory));
    expect(r.reply).toBe("[1,2,3] [1,2]");
  });

  it("calls tools with copies of the arguments, awaiting asynchronous ones", async () => {
    const seen: unknown[] = [];
    const tools = {
      lookup: async (q: { word: string }) => {
        seen.push(q);
        (q as { word: string }).word = "mutated";
        return { word: q.word, meaning: `meaning of ${q.word}` };
      },
    };
    const g = graph(
      [
        n({ name: "q", action: "code", instruction: "let query = { word: 'cat' }", transitions: ["call"] }),
        n({ name: "call", action: "code", instruction: "const found = lookup(query)", transitions: ["show"] }),
        n({ name: "show", action: "chat_exact", instruction: "$found / $query" }),
      ],
      { tools: { lookup: { module: "./tools.js", export: "lookup" } } },
    );
    const { trace, events } = collect();
    const r = await new Agent(g, { model: new TestModel(), tools }).reply("", undefined, { trace });
    expect(r.reply).toBe('{"word":"mutated","meaning":"meaning of mutated"} / {"word":"cat"}');
    expect(seen).toHaveLength(1);
    // The call is recorded (for the turn's replay) before the code's own event.
    expect(events.filter((e) => e.node === "call").map((e) => e.kind)).toEqual(["tool_call", "code", "transition"]);
    expect(events.find((e) => e.node === "call" && e.kind === "code")).toMatchObject({ changes: [{ name: "found" }] });
  });

  it("a tool that throws fails the node with its location", async () => {
    const g = graph(
      [
        n({
          name: "call",
          action: "code",
          instruction: "explode()",
          loc: { line: 3, column: 1, endLine: 3, endColumn: 9 },
        }),
      ],
      { tools: { explode: { module: "./t.js", export: "explode" } }, source: { file: "a.ts", sha256: "b".repeat(64) } },
    );
    const agent = new Agent(g, {
      model: new TestModel(),
      tools: {
        explode: () => {
          throw new Error("kaboom");
        },
      },
    });
    await expect(agent.reply("")).rejects.toMatchObject({ code: "sandbox", node: "call", location: "a.ts:3:1" });
  });
});

describe("tools wherever code runs", () => {
  it("in conditions, call arguments and return expressions", async () => {
    const calls: string[] = [];
    const tools = {
      big: async (x: number) => {
        calls.push(`big ${x}`);
        return x > 10;
      },
      twice: (x: number) => {
        calls.push(`twice ${x}`);
        return 2 * x;
      },
    };
    const g = graph(
      [
        n({ name: "start", action: "code", instruction: "let v = 7", transitions: ["pick.*"] }),
        n({ name: "pick.a", action: "transition", boolean_condition: "big(v)", transitions: ["yes"] }),
        n({ name: "pick.b", action: "transition", boolean_condition: "!big(v * 2)", transitions: ["yes"] }),
        n({ name: "pick.c", action: "transition", transitions: ["call"] }),
        n({ name: "yes", action: "chat_exact", instruction: "wrong branch" }),
        n({ name: "call", action: "local_function", instruction: "f(twice(v))", assign: "r", transitions: ["show"] }),
        n({ name: "show", action: "chat_exact", instruction: "$r" }),
        n({ name: "f", action: "transition", transitions: ["return twice(x) + 1"] }),
      ],
      {
        functions: { f: { kind: "local_function", params: ["x"], entry: "f" } },
        tools: { big: { module: "./t.js", export: "big" }, twice: { module: "./t.js", export: "twice" } },
      },
    );
    const r = await new Agent(g, { model: new TestModel(), tools }).reply("");
    expect(r.reply).toBe("29");
    expect(calls).toEqual(["big 7", "big 14", "twice 7", "twice 14"]);
  });
});
