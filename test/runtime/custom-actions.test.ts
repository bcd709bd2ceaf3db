// Custom actions at run time: each hook, inheritance from a base, the copy boundary, the errors
// the Agent gives at construction and at the node, and replay of the hooks' model calls.
import { describe, expect, it } from "vitest";
import {
  Agent,
  AgentError,
  defineAction,
  replayConversation,
  validateGraph,
  type Graph,
  type GraphNode,
  type TraceEvent,
} from "@autograms/runtime";
import { TestModel, graph, pickByText, roundTrip } from "./helpers.js";

const confirm = defineAction({
  name: "confirm",
  fields: { yes: { type: "array", items: { type: "string" } } },
  instruction(ctx) {
    return { reply: `You said "${ctx.userReply ?? ""}". Is that right?`, output: ctx.userReply ?? "" };
  },
  transition(ctx) {
    const answer = (ctx.userReply ?? "").trim().toLowerCase();
    const yes = ctx.fields.yes ?? ["yes"];
    if (yes.includes(answer)) return ctx.node.transitions[0];
    if (answer === "no") return ctx.node.transitions[1];
    return null;
  },
});

const withActions = (nodes: GraphNode[], actions: Graph["actions"], extra: Partial<Graph> = {}) =>
  graph(nodes, { actions, ...extra });
const CONFIRM_INFO = {
  module: "./actions.js",
  export: "confirm",
  fields: { yes: { type: "array", items: { type: "string" } } },
  decides: true as const,
};

function confirmGraph(): Graph {
  return withActions(
    [
      { name: "ask", action: "chat_exact", instruction: "Your email?", transitions: ["check"] },
      {
        name: "check",
        action: "confirm",
        yes: ["yes", "yep"],
        transitions: ["done", "ask"],
        transition_question: "Did the user confirm?",
        transition_choices: ["yes", "no"],
        assign: "email",
      } as GraphNode,
      { name: "done", action: "chat_exact", instruction: "Saved $email.", transitions: ["quit"] },
    ],
    { confirm: CONFIRM_INFO },
  );
}

describe("custom actions", () => {
  // The seed's node classes ported to defineAction (ChatExactNode, BaseNode.apply_transition of the
  // original, commit 243158a: autograms/nodes/chat_nodes.py:149-190, base_node.py:870-907).
  it("a transition hook decides without transition_question and transition_choices, reading the node's question fields", async () => {
    const seen: unknown[] = [];
    const route = defineAction({
      name: "route",
      base: "chat_exact",
      transition(ctx) {
        seen.push({ ...ctx.node, transitions: [...ctx.node.transitions] });
        return ctx.userReply === "tea" ? ctx.node.transitions[0] : ctx.node.transitions[1];
      },
    });
    const info = { module: "./a.js", export: "route", base: "chat_exact" as const, decides: true as const };
    const g = withActions(
      [
        { name: "ask", action: "route", instruction: "Tea or coffee?", transitions: ["tea", "coffee"] } as GraphNode,
        { name: "tea", action: "chat_exact", instruction: "Tea it is.", transitions: ["quit"] },
        { name: "coffee", action: "chat_exact", instruction: "Coffee it is.", transitions: ["quit"] },
      ],
      { route: info },
    );
    expect(validateGraph(g).errors).toEqual([]);
    const model = new TestModel();
    const agent = new Agent(g, { model, actions: [route] });
    let r = await agent.reply("");
    r = await agent.reply("coffee", r.memory);
    expect(r.reply).toBe("Coffee it is.");
    expect(model.choices).toHaveLength(0);
    // The question fields, when the node has them, are on ctx.node as written.
    const asking = withActions(
      [
        {
          name: "ask",
          action: "route",
          instruction: "Tea or coffee?",
          transitions: ["tea", "coffee"],
          transition_question: "Which did $who pick?",
          transition_choices: ["tea", "coffee"],
          question_prompt: "Decide.",
          transition_context: 2,
        } as GraphNode,
        { name: "tea", action: "chat_exact", instruction: "Tea it is.", transitions: ["quit"] },
        { name: "coffee", action: "chat_exact", instruction: "Coffee it is.", transitions: ["quit"] },
      ],
      { route: info },
    );
    const agent2 = new Agent(asking, { model, actions: [route] });
    await agent2.reply("tea", (await agent2.reply("")).memory);
    expect(seen.at(-1)).toMatchObject({
      name: "ask",
      transitions: ["tea", "coffee"],
      transition_question: "Which did $who pick?",
      transition_choices: ["tea", "coffee"],
      question_prompt: "Decide.",
      transition_context: 2,
    });
    // Without a question, a hook that decides nothing has no way on: an error at the node.
    const undecided = defineAction({ name: "route", base: "chat_exact", transition: () => null });
    const stuck = new Agent(g, { model, actions: [undecided] });
    await expect(stuck.reply("tea", (await stuck.reply("")).memory)).rejects.toThrow(
      "action 'route': its transition hook chose none of the 2 transitions, and the node has no transition_question for the model to choose with",
    );
    // A graph whose action decides, given an implementation without a transition hook: compile again.
    expect(() => new Agent(g, { model, actions: [defineAction({ name: "route", base: "chat_exact" })] })).toThrow(
      "the graph was compiled with a transition hook, the implementation given has none: compile the agent again",
    );
    const withoutDecides = withActions(g.nodes, { route: { ...info, decides: undefined } });
    expect(validateGraph(withoutDecides).errors.map((e) => e.message)).toContain(
      "node 'ask': has several transitions but no transition_question",
    );
  });

  it("declared effects: a result sets the prompt, the user prompt and variables it declares, and nothing else", async () => {
    // The original's prompt nodes and variable-writing nodes as one action: SetUserPromptNode and
    // SetPromptNode call memory_object.set_user_prompt / set_prompt (autograms/nodes/prompt_nodes.py:22-54
    // at commit 243158a).
    const persona = defineAction({
      name: "persona",
      effects: { setPrompt: true, setUserPrompt: true, assign: ["level", "topic"] },
      instruction: (ctx) => ({
        setPrompt: `You teach ${ctx.instruction}.`,
        setUserPrompt: "You are a pupil.",
        assign: { level: 2, topic: ctx.instruction },
      }),
    });
    // The graph records what the compiler read of the declaration.
    const nodes = [
      { name: "p", action: "persona", instruction: "fractions", transitions: ["c"] } as GraphNode,
      { name: "c", action: "chat", instruction: "Teach $topic at level $level.", transitions: ["quit"] } as GraphNode,
    ];
    const declared = (effects: Graph["actions"] extends infer A ? NonNullable<A>[string]["effects"] : never) =>
      withActions(nodes, { persona: { module: "./a.js", export: "persona", effects } });
    const g = declared({ setPrompt: true, setUserPrompt: true, assign: ["level", "topic"] });
    const model = new TestModel(() => "ok");
    const r = await new Agent(g, { model, actions: [persona] }).reply("hi");
    expect(model.completions[0]!.messages[0]!.content).toBe(
      "You teach fractions.\n\nUser: hi\n\n\n\nInstruction for Agent: Teach fractions at level 2.\nAgent's reply:",
    );
    expect(r.memory.stack[0]!.userPrompt).toBe("You are a pupil.");
    // An effect the action does not declare fails the node, naming it.
    const sneaky = defineAction({
      name: "persona",
      effects: { assign: ["level"] },
      instruction: () => ({ assign: { level: 1, secret: true } }),
    });
    await expect(new Agent(declared({ assign: ["level"] }), { model, actions: [sneaky] }).reply("hi")).rejects.toThrow(
      "action 'persona': its instruction hook assigned 'secret', which the action does not declare (effects.assign: ['level'])",
    );
    const prompter = defineAction({ name: "persona", instruction: () => ({ setPrompt: "x" }) });
    await expect(new Agent(declared(undefined), { model, actions: [prompter] }).reply("hi")).rejects.toThrow(
      "returned setPrompt, which the action does not declare (effects: { setPrompt: true })",
    );
    expect(() => defineAction({ name: "bad", effects: { assign: ["_last_state"] } })).toThrow(
      "effects.assign must be an array of variable names",
    );
  });

  it("a reply can leave its turn unretained, so later prompts show only the reply (ChatExactNode's retain_instruction=False)", async () => {
    // autograms/nodes/chat_nodes.py:149-175 at commit 243158a: ChatExactNode appends its turn with
    // retain_instruction = False (line 164).
    const say = (retain?: boolean) =>
      defineAction({
        name: "say",
        instruction: (ctx) => ({ reply: `Said: ${ctx.instruction}`, ...(retain !== undefined && { retain }) }),
      });
    const g = withActions(
      [
        { name: "s", action: "say", instruction: "Greet the user.", transitions: ["c"] } as GraphNode,
        { name: "c", action: "chat", instruction: "Go on.", transitions: ["quit"] },
      ],
      { say: { module: "./a.js", export: "say" } },
    );
    const prompts = async (retain?: boolean) => {
      const model = new TestModel(() => "ok");
      const agent = new Agent(g, { model, actions: [say(retain)] });
      await agent.reply("hi", (await agent.reply("")).memory);
      return model.completions[0]!.messages;
    };
    expect((await prompts())[0]!.content).toContain("Instruction for Agent: Greet the user.");
    expect((await prompts(false))[0]).toEqual({ role: "user", content: "You are an agent.\n\n\nAgent's reply:" });
    const bad = defineAction({ name: "say", instruction: () => ({ reply: "x", retain: false, instruction: "y" }) });
    await expect(new Agent(g, { model: new TestModel(), actions: [bad] }).reply("")).rejects.toThrow(
      "returned an instruction to keep and retain: false",
    );
  });

  it("runs the instruction hook (a reply without a model call) and the transition hook on the user's answer", async () => {
    const model = new TestModel();
    const agent = new Agent(confirmGraph(), { model, actions: [confirm] });
    let r = await agent.reply("");
    expect(r.reply).toBe("Your email?");
    r = await agent.reply("a@b.c", roundTrip(r.memory));
    expect(r.reply).toBe('You said "a@b.c". Is that right?');
    r = await agent.reply("yep", roundTrip(r.memory));
    expect(r.reply).toBe("Saved a@b.c.");
    expect(model.completions).toHaveLength(0);
    expect(model.choices).toHaveLength(0);
  });

  it("falls back to the usual transition when the transition hook returns null", async () => {
    const model = new TestModel(undefined, pickByText("no"));
    const agent = new Agent(confirmGraph(), { model, actions: { confirm } });
    let r = await agent.reply("");
    r = await agent.reply("a@b.c", r.memory);
    r = await agent.reply("hmm, not sure", r.memory);
    expect(r.reply).toBe("Your email?");
    expect(model.choices).toHaveLength(1);
    expect(model.choices[0]!.prompt).toContain("Did the user confirm?");
  });

  it("assigns the output hook's value when the node is left, after the user's answer", async () => {
    // The original's get_variable_output(user_reply, memory_obj) runs when the node is left, with the
    // new user reply (autograms/nodes/base_node.py:838 and autograms/autogram.py:177-317, commit 243158a).
    const shout = defineAction({
      name: "shout",
      base: "chat_exact",
      output: (ctx) => ({ said: ctx.output, answer: ctx.userReply }),
    });
    const g = withActions(
      [
        { name: "s", action: "shout", instruction: "HELLO", transitions: ["t"], assign: "x" } as GraphNode,
        { name: "t", action: "chat_exact", instruction: "$x", transitions: ["quit"] },
      ],
      { shout: { module: "./a.js", export: "shout", base: "chat_exact" } },
    );
    const agent = new Agent(g, { model: new TestModel(), actions: [shout] });
    let r = await agent.reply("");
    expect(r.reply).toBe("HELLO");
    r = await agent.reply("hi", r.memory);
    expect(JSON.parse(r.reply!)).toEqual({ said: "HELLO", answer: "hi" });
  });

  it("inherits the base's instruction: a custom transition on a chat node generates as chat does", async () => {
    const pick = defineAction({ name: "pick", base: "chat", transition: () => "b" });
    const g = withActions(
      [
        {
          name: "c",
          action: "pick",
          instruction: "Greet.",
          transitions: ["a", "b"],
          transition_question: "q",
          transition_choices: ["1", "2"],
        } as GraphNode,
        { name: "a", action: "chat_exact", instruction: "A", transitions: ["quit"] },
        { name: "b", action: "chat_exact", instruction: "B", transitions: ["quit"] },
      ],
      { pick: { module: "./a.js", export: "pick", base: "chat", decides: true } },
    );
    const model = new TestModel((req) => `generated at ${req.node}`);
    const agent = new Agent(g, { model, actions: [pick] });
    const events: TraceEvent[] = [];
    let r = await agent.reply("hi", undefined, { trace: (e) => events.push(e) });
    expect(r.reply).toBe("generated at c");
    expect(events.find((e) => e.kind === "generate")).toMatchObject({ action: "pick", base: "chat" });
    r = await agent.reply("ok", r.memory, { trace: (e) => events.push(e) });
    expect(r.reply).toBe("B");
    expect(model.choices).toHaveLength(0);
    expect(events.find((e) => e.kind === "custom")).toMatchObject({ hook: "transition", target: "b" });
  });

  it("gives hooks the node's fields with $variables filled in, variables by scope, turns, and the model", async () => {
    const seen: unknown[] = [];
    const look = defineAction({
      name: "look",
      fields: { topic: { type: "string" }, extra: { type: "object" } },
      required: ["topic"],
      async instruction(ctx) {
        seen.push(ctx.fields, ctx.instruction, ctx.variable("city"), ctx.variable("nope"), ctx.turns.length);
        const text = await ctx.generate(`${ctx.instruction} about ${ctx.fields.topic}`, { purpose: "thought" });
        return { thought: text, output: { text, topic: ctx.fields.topic } };
      },
    });
    const g = withActions(
      [
        { name: "set", action: "code", instruction: "let city = 'Oslo'", transitions: ["l"] },
        {
          name: "l",
          action: "look",
          instruction: "Tell $city",
          topic: "weather in $city",
          extra: { where: ["$city"] },
          transitions: ["say"],
          assign: "found",
        } as GraphNode,
        { name: "say", action: "chat_exact", instruction: "$found", transitions: ["quit"] },
      ],
      {
        look: {
          module: "./a.js",
          export: "look",
          fields: { topic: { type: "string" }, extra: { type: "object" } },
          required: ["topic"],
        },
      },
    );
    const model = new TestModel(
      (req) => `T:${req.purpose}:${req.messages.at(-1)!.content.includes("Tell Oslo about weather in Oslo")}`,
    );
    const agent = new Agent(g, { model, actions: [look] });
    const r = await agent.reply("hello");
    expect(seen).toEqual([{ topic: "weather in Oslo", extra: { where: ["Oslo"] } }, "Tell Oslo", "Oslo", undefined, 0]);
    expect(JSON.parse(r.reply!)).toEqual({ text: "T:thought:true", topic: "weather in Oslo" });
    // The thought consumed the user's message, as a thought node would.
    expect(model.completions[0]!.messages.at(-1)!.content).toContain("hello");
  });

  it("copies what crosses into memory and refuses what is not plain data, at the node", async () => {
    const bad = defineAction({ name: "bad", instruction: () => ({ output: { when: new Date() } as never }) });
    const g = withActions([{ name: "b", action: "bad", transitions: ["quit"] } as GraphNode], {
      bad: { module: "./a.js", export: "bad" },
    });
    g.nodes[0]!.loc = { line: 3, column: 5, endLine: 3, endColumn: 20 };
    g.source = { file: "agent.ts", sha256: "0".repeat(64) };
    const agent = new Agent(g, { model: new TestModel(), actions: [bad] });
    const err = await agent.reply("x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentError);
    expect((err as AgentError).code).toBe("action_failed");
    expect((err as AgentError).message).toMatch(
      /^agent\.ts:3:5: node 'b': action 'bad': its instruction hook gave a value that cannot go into memory: .*not plain data/,
    );
  });

  it("fails a hook that throws at its node, with the hook's message, and keeps the memory", async () => {
    const boom = defineAction({
      name: "boom",
      instruction: () => {
        throw new Error("index offline");
      },
    });
    const g = withActions(
      [
        { name: "a", action: "chat_exact", instruction: "hi", transitions: ["b"] },
        { name: "b", action: "boom", transitions: ["quit"] } as GraphNode,
      ],
      { boom: { module: "./a.js", export: "boom" } },
    );
    const agent = new Agent(g, { model: new TestModel(), actions: [boom] });
    const first = await agent.reply("");
    const err = await agent.reply("go", first.memory).catch((e: unknown) => e);
    expect((err as AgentError).message).toBe(
      "node 'b' (no source location): action 'boom': its instruction hook failed: index offline",
    );
    expect(first.memory.turn).toBe(1);
  });

  it("refuses a transition that is not one of the node's, and a result of the wrong shape", async () => {
    const stray = defineAction({ name: "stray", transition: () => "elsewhere" });
    const g = withActions(
      [
        { name: "s", action: "stray", transitions: ["t"] } as GraphNode,
        { name: "t", action: "chat_exact", instruction: "T", transitions: ["quit"] },
      ],
      { stray: { module: "./a.js", export: "stray", decides: true } },
    );
    await expect(new Agent(g, { model: new TestModel(), actions: [stray] }).reply("")).rejects.toThrow(
      "action 'stray': its transition hook chose 'elsewhere', which is not one of the node's transitions (t)",
    );
    const shape = defineAction({ name: "shape", instruction: () => ({ reply: "a", thought: "b" }) as never });
    const g2 = withActions([{ name: "s", action: "shape", transitions: ["quit"] } as GraphNode], {
      shape: { module: "./a.js", export: "shape" },
    });
    await expect(new Agent(g2, { model: new TestModel(), actions: [shape] }).reply("")).rejects.toThrow(
      "returned both a reply and a thought",
    );
  });

  it("is an error at construction when an implementation is missing or differs from what the graph was compiled with", () => {
    const g = confirmGraph();
    expect(() => new Agent(g, { model: new TestModel() })).toThrow(
      /the graph uses action 'confirm' \(export 'confirm' of '\.\/actions\.js'\), but no implementation was given in options\.actions/,
    );
    const other = defineAction({
      name: "confirm",
      base: "chat",
      fields: { yes: { type: "array", items: { type: "string" } } },
    });
    expect(() => new Agent(g, { model: new TestModel(), actions: [other] })).toThrow(
      /compiled with base none, the implementation given has 'chat'/,
    );
    const fewer = defineAction({ name: "confirm" });
    expect(() => new Agent(g, { model: new TestModel(), actions: [fewer] })).toThrow(
      /other fields than the implementation given declares/,
    );
    expect(() => new Agent(g, { model: new TestModel(), actions: [{ name: "confirm" } as never] })).toThrow(
      /not an action made with defineAction/,
    );
  });

  it("validateGraph checks a custom node's fields against its action's schemas, and unknown actions", () => {
    const g = confirmGraph();
    (g.nodes[1] as Record<string, unknown>).yes = "yes";
    (g.nodes[1] as Record<string, unknown>).colour = "red";
    const r = validateGraph(g);
    expect(r.valid).toBe(false);
    const messages = r.errors.map((e) => e.message);
    expect(messages).toContain("node 'check': field 'yes' of action 'confirm': yes must be array");
    expect(messages).toContain(
      "node 'check': 'colour' is not a node field nor a field of action 'confirm' (its fields: yes)",
    );
    const g2 = confirmGraph();
    delete g2.actions;
    expect(validateGraph(g2).errors.map((e) => e.message)).toContain(
      "node 'check': unknown action 'confirm': neither a built-in action nor one of the graph's actions",
    );
    const g3 = confirmGraph();
    g3.actions!.confirm!.fields = { instruction: { type: "string" } };
    expect(validateGraph(g3).errors.map((e) => e.message)).toContain(
      "action 'confirm': field 'instruction' is a field of every node; an action declares only fields of its own",
    );
    // Declared effects: only the effects there are, never an automatic variable.
    const g5 = confirmGraph();
    g5.actions = { confirm: { ...CONFIRM_INFO, effects: { assign: ["_last_state"], reload: true } as never } };
    const effectErrors = validateGraph(g5).errors.map((e) => `${e.path} ${e.message}`);
    expect(effectErrors).toEqual([
      "/actions/confirm/effects /actions/confirm/effects must NOT have additional properties",
      expect.stringMatching(/^\/actions\/confirm\/effects\/assign\/0 .*must match pattern "\^\(\?!_last_\)/),
    ]);
    // A built-in node still has only the format's fields.
    const g4 = confirmGraph();
    (g4.nodes[0] as Record<string, unknown>).yes = ["y"];
    expect(validateGraph(g4).valid).toBe(false);
  });

  it("defineAction refuses a bad declaration at once", () => {
    expect(() => defineAction({ name: "chat" })).toThrow(
      "defineAction 'chat': 'chat' is a built-in action; a custom action needs a name of its own",
    );
    expect(() => defineAction({ name: "x", base: "code" as never })).toThrow(
      /base 'code' is not an action to inherit from/,
    );
    // The original's FunctionNode is the call itself (autograms/nodes/function_nodes.py, commit 243158a).
    expect(() => defineAction({ name: "x", base: "local_function" as never })).toThrow(
      /base 'local_function' cannot be inherited: a call node's behaviour is the call itself/,
    );
    expect(() => defineAction({ name: "x", effects: { consume: true } as never })).toThrow(
      "effects.consume is not an effect an action can declare: { setPrompt?, setUserPrompt?, consumeReply?, assign? }",
    );
    expect(() => defineAction({ name: "x", fields: { n: 3 as never } })).toThrow(
      /the JSON Schema of field 'n' is not valid: it must be an object/,
    );
    // A schema that does not compile is found when the graph is checked (the compiler does too).
    const g = confirmGraph();
    g.actions!.confirm!.fields = { yes: { type: "nonsense" } };
    expect(
      validateGraph(g)
        .errors.map((e) => e.message)
        .join("\n"),
    ).toMatch(/action 'confirm': the JSON Schema of field 'yes' is not valid: .*type/);
    expect(() => defineAction({ name: "x", fields: {}, required: ["n" as never] })).toThrow(
      /required field 'n' is not one of the action's fields/,
    );
  });

  it("replays a conversation through custom nodes, their model calls answered from the recording", async () => {
    const ask = defineAction({
      name: "ask",
      async instruction(ctx) {
        const i = await ctx.model.choose("Which greeting?", ["formal", "casual"]);
        const text = await ctx.generate(`Greet the user, ${["formally", "casually"][i]}.`);
        return { reply: text };
      },
    });
    const g = withActions(
      [
        { name: "a", action: "ask", transitions: ["b"] } as GraphNode,
        { name: "b", action: "chat", instruction: "Answer.", transitions: ["quit"] },
      ],
      { ask: { module: "./a.js", export: "ask" } },
    );
    let n = 0;
    const model = new TestModel(
      () => `answer ${++n}`,
      () => 1,
    );
    const agent = new Agent(g, { model, actions: [ask] });
    const events: TraceEvent[] = [];
    let r = await agent.reply("hi", undefined, { trace: (e) => events.push(e) });
    r = await agent.reply("thanks", r.memory, { trace: (e) => events.push(e) });
    expect(r.done).toBe(true);
    const custom = events.find((e) => e.kind === "custom")!;
    expect(custom).toMatchObject({ hook: "instruction", reply: "answer 1" });
    expect(custom.kind === "custom" && custom.calls.map((c) => c.kind)).toEqual(["choose", "complete"]);
    const replies: (string | null)[] = [];
    for await (const turn of replayConversation(g, events, { actions: [ask] })) replies.push(turn.reply);
    expect(replies).toEqual(["answer 1", "answer 2"]);
    // A hook that asks something else diverges, named at its node.
    const other = defineAction({
      name: "ask",
      async instruction(ctx) {
        return { reply: await ctx.generate("Something else.") };
      },
    });
    await expect(
      (async () => {
        for await (const _ of replayConversation(g, events, { actions: [other] })) {
          /* drain */
        }
      })(),
    ).rejects.toThrow(/replay diverged/);
  });
});

// The original's self-referential agent adds nodes while it runs (examples/self_referential/
// self_referential.py:26 at commit 243158a, autogram.add_node(name=new_name, ...)), and a second
// node of one name raises "Duplicate node name <name>" (autograms/autogram.py:569). Here a graph
// is fixed when the Agent is made; one designed by a program at run time is checked then.
describe("nodes designed at run time", () => {
  it("two of one name are refused when the Agent is made, naming the node, never silently replaced", () => {
    const designed = ["greet_user", "ask_topic", "greet_user"].map((name, i, all) => ({
      name,
      action: "chat" as const,
      instruction: `Step ${i}`,
      transitions: [all[i + 1] ?? "quit"],
    }));
    const g: Graph = {
      format: "autograms-graph",
      version: 1,
      agent: "Designed",
      globals: {},
      functions: {},
      nodes: designed,
    };
    expect(() => new Agent(g, { model: new TestModel() })).toThrow(/node 'greet_user'.*duplicate node name/);
  });
});
