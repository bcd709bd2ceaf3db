import { describe, expect, it } from "vitest";
import { Agent, type GraphNode } from "@autograms/runtime";
import { TestModel, collect, graph, pickByText, queue, roundTrip, n } from "./helpers.js";

const say = (name: string, transitions = ["quit"], extra: Partial<GraphNode> = {}) =>
  n({ name, action: "chat_exact", instruction: name, transitions, ...extra });

async function turns(agent: Agent, messages: string[]): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  let memory;
  for (const m of messages) {
    const r = await agent.reply(m, memory && roundTrip(memory));
    out.push(r.reply);
    memory = r.memory;
  }
  return out;
}

describe("multiple-choice transitions", () => {
  it("asks the model with the original's question layout and takes the chosen transition", async () => {
    const model = new TestModel(undefined, pickByText("z is true"));
    const g = graph([
      say("Q?", ["x", "y", "z"], {
        transition_question: "Which is true?",
        transition_choices: ["x is true", "y is true", "z is true"],
      }),
      say("x"),
      say("y"),
      say("z"),
    ]);
    expect(await turns(new Agent(g, { model }), ["", "hello there"])).toEqual(["Q?", "z"]);
    expect(model.choices).toEqual([
      {
        node: "Q?",
        prompt:
          "I need you to solve a multiple choice question.\n\n\nQ?\n\nUser: hello there\n\n\n\nWhich is true?\nA. x is true\nB. y is true\nC. z is true\n",
        choices: ["x is true", "y is true", "z is true"],
      },
    ]);
  });

  it("handles any number of choices (the original stopped at 5)", async () => {
    const names = Array.from({ length: 30 }, (_, i) => `t${i}`);
    const model = new TestModel(undefined, () => 27);
    const g = graph([
      say("pick", names, { transition_question: "Which?", transition_choices: names.map((x) => `answer ${x}`) }),
      ...names.map((x) => say(x)),
    ]);
    expect(await turns(new Agent(g, { model }), ["", "go"])).toEqual(["pick", "t27"]);
    expect(model.choices[0]!.choices).toHaveLength(30);
    expect(model.choices[0]!.prompt).toContain("\n28. answer t27\n");
    const small = new TestModel(undefined, () => 5);
    const six = names.slice(0, 6);
    const g6 = graph([
      say("pick", six, { transition_question: "Which?", transition_choices: six }),
      ...six.map((x) => say(x)),
    ]);
    expect(await turns(new Agent(g6, { model: small }), ["", "go"])).toEqual(["pick", "t5"]);
    expect(small.choices[0]!.prompt).toContain("F. t5\n");
  });

  it("asks yes/no questions as the original, keeping the author's order", async () => {
    for (const order of [
      ["yes", "no"],
      ["No", "Yes"],
    ]) {
      const model = new TestModel(undefined, (req) => req.choices.findIndex((c) => c.toLowerCase() === "yes"));
      const g = graph([
        say("ready?", ["first", "second"], { transition_question: "Is the user ready?", transition_choices: order }),
        say("first"),
        say("second"),
      ]);
      const out = await turns(new Agent(g, { model }), ["", "sure"]);
      expect(model.choices[0]!.prompt).toBe(
        "I need you to solve a multiple choice question.\n\n\nready?\n\nUser: sure\n\n\n\nIs the user ready?\n (Yes or No)",
      );
      expect(model.choices[0]!.choices).toEqual(order);
      expect(out[1]).toBe(order[0] === "yes" ? "first" : "second");
    }
  });

  it("does not treat odd lists as yes/no (the original's precedence bug)", async () => {
    const model = new TestModel(undefined, pickByText("maybe"));
    const g = graph([
      say("q", ["a", "b", "c"], { transition_question: "Well?", transition_choices: ["maybe", "yes", "later"] }),
      say("a"),
      say("b"),
      say("c"),
    ]);
    expect(await turns(new Agent(g, { model }), ["", "hm"])).toEqual(["q", "a"]);
    expect(model.choices[0]!.choices).toEqual(["maybe", "yes", "later"]);
  });

  it("uses question_prompt, transition_context (0 = everything) and $variables in the question", async () => {
    const model = new TestModel(undefined, () => 0);
    const g = graph([
      n({ name: "set", action: "code", instruction: "let topic = 'fractions'", transitions: ["one"] }),
      say("one", ["two"]),
      say("two", ["three"]),
      say("three", ["end", "end"], {
        transition_question: "Done with $topic?",
        transition_choices: ["yes", "no"],
        question_prompt: "Decide.",
        transition_context: 0,
      }),
      say("end"),
    ]);
    await turns(new Agent(g, { model }), ["", "a", "b", "c"]);
    // Both as the original (commit 243158a) sends them for these nodes: the past inputs as its
    // make_prompt(transition=True) shows them, with the reply start (autograms/nodes/base_node.py:567-640, 671-703).
    expect(model.choices[0]!.prompt).toBe(
      "Decide.\n\n\n\n\nAgent's reply:\n\none\n\nUser: a\nAgent's reply:\n\ntwo\n\nUser: b\nAgent's reply:\n\nthree\n\nUser: c\n\n\n\nDone with fractions?\n (Yes or No)",
    );
    const two = new TestModel(undefined, () => 0);
    const g2 = structuredClone(g);
    (g2.nodes[3] as GraphNode).transition_context = 2;
    await turns(new Agent(g2, { model: two }), ["", "a", "b", "c"]);
    expect(two.choices[0]!.prompt).toBe(
      "Decide.\n\ntwo\n\nUser: b\nAgent's reply:\n\nthree\n\nUser: c\n\n\n\nDone with fractions?\n (Yes or No)",
    );
  });
});

describe("special targets", () => {
  it("$var goes to the node the variable names", async () => {
    const g = graph([
      n({ name: "pick", action: "code", instruction: "let dest = 'two'", transitions: ["$dest"] }),
      say("one"),
      say("two"),
    ]);
    expect(await turns(new Agent(g, { model: new TestModel() }), [""])).toEqual(["two"]);
  });

  it("X.n goes to the first X.k not yet visited, then stays on the last", async () => {
    const g = graph([
      say("hub", ["lesson.n"]),
      say("lesson.1", ["hub"]),
      say("lesson.2", ["hub"]),
      say("lesson.3", ["hub"]),
    ]);
    const out = await turns(new Agent(g, { model: new TestModel() }), Array(9).fill("ok"));
    expect(out).toEqual(["hub", "lesson.1", "hub", "lesson.2", "hub", "lesson.3", "hub", "lesson.3", "hub"]);
  });

  it("X.* takes the first candidate whose condition holds; one without a condition is an else", async () => {
    const g = graph([
      n({ name: "set", action: "code", instruction: "let x = 5", transitions: ["branch.*"] }),
      n({ name: "branch.a", action: "transition", boolean_condition: "x > 10", transitions: ["big"] }),
      n({ name: "branch.b", action: "transition", boolean_condition: "x > 3", transitions: ["mid"] }),
      n({ name: "branch.c", action: "transition", transitions: ["small"] }),
      say("big"),
      say("mid"),
      say("small"),
    ]);
    expect(await turns(new Agent(g, { model: new TestModel() }), [""])).toEqual(["mid"]);
    const low = structuredClone(g);
    low.nodes[0]!.instruction = "let x = 1";
    expect(await turns(new Agent(low, { model: new TestModel() }), [""])).toEqual(["small"]);
  });

  it("X.* checks the last candidate's condition too (the original took it unchecked), failing when none holds", async () => {
    const g = graph([
      n({ name: "set", action: "code", instruction: "let x = 1", transitions: ["branch.*"] }),
      n({ name: "branch.a", action: "transition", boolean_condition: "x > 10", transitions: ["big"] }),
      n({ name: "branch.b", action: "transition", boolean_condition: "x > 3", transitions: ["mid"] }),
      say("big"),
      say("mid"),
    ]);
    await expect(new Agent(g, { model: new TestModel() }).reply("")).rejects.toMatchObject({
      code: "no_condition_held",
      node: "set",
    });
  });

  it("X.* without conditions scores candidates on the visit history", async () => {
    const g = graph([
      say("start", ["topic.*"]),
      say("topic.a", ["start"], { blocking_states: ["topic.a"] }),
      say("topic.b", ["start"], { prerequisite_states: ["topic.a"], up_weight_states: ["start"] }),
      say("topic.c", ["start"], { down_weight_states: ["start"] }),
    ]);
    const out = await turns(new Agent(g, { model: new TestModel() }), Array(6).fill("ok"));
    // a first (b lacks its prerequisite, c is weighed down); then a is blocked and b is weighed up.
    expect(out).toEqual(["start", "topic.a", "start", "topic.b", "start", "topic.b"]);
  });

  it("only exact 'return' / 'return <expr>' return: a node named 'returning' is a node", async () => {
    const g = graph(
      [
        n({ name: "c", action: "local_function", instruction: "f()", transitions: ["returning"], assign: "v" }),
        say("returning", ["quit"], { instruction: "got $v" }),
        n({ name: "f", action: "transition", transitions: ["return 40 + 2"] }),
      ],
      { functions: { f: { kind: "local_function", params: [], entry: "f" } } },
    );
    expect(await turns(new Agent(g, { model: new TestModel() }), [""])).toEqual(["got 42"]);
  });

  it("return outside a function is an error at that node", async () => {
    const g = graph([n({ name: "r", action: "transition", transitions: ["return"] })]);
    await expect(new Agent(g, { model: new TestModel() }).reply("")).rejects.toMatchObject({
      code: "return_outside_function",
      node: "r",
    });
  });
});

describe("interjections", () => {
  const nodes = (count: number): GraphNode[] => [
    say("lesson", ["lesson"]),
    ...Array.from({ length: count }, (_, i) =>
      say(`int${i}`, ["lesson"], {
        condition_interjection: `The user raises topic ${i}.`,
        ...(i === 0 ? { example_interjection: "Example: User: stop\nAnswer: A" } : {}),
      }),
    ),
  ];

  it("asks after the user answers a chat node, with every condition then 'None of the above.'", async () => {
    const model = new TestModel(undefined, queue([2, 6]));
    const out = await turns(new Agent(graph(nodes(6)), { model }), ["", "what about topic two", "ok"]);
    expect(out).toEqual(["lesson", "int2", "lesson"]);
    expect(model.choices[0]).toEqual({
      node: "lesson",
      prompt:
        "Example: User: stop\nAnswer: A\n\nI need you to solve a multiple choice question.\n\n\nlesson\n\nUser: what about topic two\n\n\n\n" +
        "Which of the following is True?\nA. The user raises topic 0.\nB. The user raises topic 1.\nC. The user raises topic 2.\n" +
        "D. The user raises topic 3.\nE. The user raises topic 4.\nF. The user raises topic 5.\nG. None of the above.\n",
      choices: [...Array.from({ length: 6 }, (_, i) => `The user raises topic ${i}.`), "None of the above."],
    });
  });

  it("falls through to the node's own transition question when none applies", async () => {
    const { events, trace } = collect();
    const model = new TestModel(undefined, queue([1, 1]));
    const g = graph([
      say("q", ["a", "b"], { transition_question: "Which?", transition_choices: ["A", "B"] }),
      say("a"),
      say("b"),
      say("int", ["q"], { condition_interjection: "The user is upset." }),
    ]);
    const agent = new Agent(g, { model });
    const r = await agent.reply("fine", (await agent.reply("")).memory, { trace });
    expect(r.reply).toBe("b");
    const t = events.find((e) => e.kind === "transition")!;
    expect(t).toMatchObject({ node: "q", target: "b", to: "b" });
    expect(t.kind === "transition" && t.decisions.map((d) => [d.purpose, d.chosen])).toEqual([
      ["interjection", 1],
      ["transition", 1],
    ]);
  });
});
