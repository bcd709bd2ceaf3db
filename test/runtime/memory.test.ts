import { describe, expect, it } from "vitest";
import { Agent, type Graph, type GraphNode, type Memory } from "@autograms/runtime";
import { TestModel, deepFreeze, fixture, graph, pickByText, queue, roundTrip, n } from "./helpers.js";

function tutorModel() {
  let problem = 0;
  return new TestModel((req) => {
    if (req.node === "makeProblem.thought_1") return `problem ${++problem}`;
    if (req.node === "checkAnswer.thought_1") return problem % 2 ? "correct" : "wrong";
    return `reply of ${req.node} to ${req.messages.length} messages`;
  }, pickByText("yes"));
}
const tutorTurns = ["", "yes", "3/4", "thanks", "1/2", "ok"];

describe("memory", () => {
  it("is plain JSON: a JSON round trip at every turn changes nothing", async () => {
    const direct: unknown[] = [];
    const tripped: unknown[] = [];
    for (const [out, trip] of [
      [direct, false],
      [tripped, true],
    ] as const) {
      const agent = new Agent(fixture("tutor"), { model: tutorModel() });
      let memory: Memory | undefined;
      for (const text of tutorTurns) {
        const r = await agent.reply(text, memory && (trip ? roundTrip(memory) : memory));
        expect(roundTrip(r.memory)).toEqual(r.memory);
        out.push([r.reply, r.memory]);
        memory = r.memory;
      }
    }
    expect(tripped).toEqual(direct);
  });

  it("is never changed in place (frozen memory works)", async () => {
    const agent = new Agent(fixture("tutor"), { model: tutorModel() });
    let memory: Memory | undefined;
    for (const text of tutorTurns) {
      const before = memory && JSON.stringify(memory);
      const r = await agent.reply(text, memory && deepFreeze(memory));
      if (memory) expect(JSON.stringify(memory)).toBe(before);
      memory = r.memory;
    }
  });

  it("records the format, version, graph identity and turn count", async () => {
    const agent = new Agent(fixture("tutor"), { model: tutorModel() });
    const { memory } = await agent.reply("");
    expect(memory).toMatchObject({
      format: "autograms-memory",
      version: 2,
      graph: { agent: "FractionTutor" },
      turn: 1,
      done: false,
    });
    expect(memory.graph.hash).toMatch(/^[0-9a-f]{32}$/);
    expect(memory.stack.at(-1)).toMatchObject({ scope: "main", node: "ask_ready" });
  });

  it("a failed turn leaves the caller's memory valid to retry from", async () => {
    let fail = true;
    const model = new TestModel((req) => {
      if (req.node === "b" && fail) throw new Error("server down");
      return "fine";
    });
    const g = graph([
      n({ name: "a", action: "chat_exact", instruction: "A", transitions: ["b"] }),
      n({ name: "b", action: "chat", instruction: "B", transitions: ["b"] }),
    ]);
    const agent = new Agent(g, { model, config: { modelRetries: 1, retryDelayMs: 0 } });
    const first = await agent.reply("");
    const saved = JSON.stringify(first.memory);
    await expect(agent.reply("hi", first.memory)).rejects.toMatchObject({ code: "model", node: "b" });
    expect(JSON.stringify(first.memory)).toBe(saved);
    fail = false;
    expect((await agent.reply("hi", first.memory)).reply).toBe("fine");
  });

  it("does not grow with steps: a loop of code nodes adds nothing between turns", async () => {
    const g = graph([
      n({ name: "init", action: "code", instruction: "let i = 0", transitions: ["ask"] }),
      n({ name: "ask", action: "chat_exact", instruction: "go", transitions: ["loop"] }),
      n({ name: "loop", action: "transition", transitions: ["loop.*"] }),
      n({ name: "loop.a", action: "transition", boolean_condition: "i % 1000 !== 999", transitions: ["inc"] }),
      n({ name: "loop.b", action: "transition", transitions: ["inc2"] }),
      n({ name: "inc", action: "code", instruction: "i++", transitions: ["loop"] }),
      n({ name: "inc2", action: "code", instruction: "i++", transitions: ["ask"] }),
    ]);
    const agent = new Agent(g, { model: new TestModel() });
    let r = await agent.reply("");
    r = await agent.reply("x", r.memory);
    const size = JSON.stringify(r.memory).length;
    r = await agent.reply("y", r.memory);
    expect(r.memory.stack[0]!.vars.i).toBe(2000);
    // one more turn: the new turn's few bytes, nothing per loop step
    expect(JSON.stringify(r.memory).length - size).toBeLessThan(80);
  });
});

describe("refusing memory", () => {
  async function saved(): Promise<{ agent: Agent; memory: Memory }> {
    const agent = new Agent(fixture("tutor"), { model: tutorModel() });
    let memory = (await agent.reply("")).memory;
    memory = (await agent.reply("yes", memory)).memory;
    return { agent, memory };
  }

  it("refuses what is not memory, or a version it does not read", async () => {
    const { agent, memory } = await saved();
    await expect(agent.reply("x", "nonsense")).rejects.toMatchObject({ code: "bad_memory" });
    await expect(agent.reply("x", { ...memory, format: "other" })).rejects.toThrow(/not conversation memory/);
    await expect(agent.reply("x", { ...memory, version: 3 })).rejects.toThrow(
      /memory version 3 is not supported \(this runtime reads versions 1 and 2\)/,
    );
  });

  it("refuses corrupt memory, saying where", async () => {
    const { agent, memory } = await saved();
    const broken = roundTrip(memory) as unknown as { stack: { turns: unknown }[] };
    broken.stack[0]!.turns = "lost";
    await expect(agent.reply("x", broken)).rejects.toThrow(/corrupt memory: stack\[0\]\.turns should be an array/);
    const noStack = { ...roundTrip(memory), stack: [] };
    await expect(agent.reply("x", noStack)).rejects.toMatchObject({ code: "bad_memory" });
  });

  it("refuses memory edited outside the runtime", async () => {
    const { agent, memory } = await saved();
    const edited = roundTrip(memory);
    edited.stack[0]!.vars.units = ["cheating"];
    await expect(agent.reply("x", edited)).rejects.toMatchObject({ code: "tampered_memory" });
  });

  it("refuses an edit anywhere in a long conversation, in the oldest turn as in the newest", async () => {
    const g = graph([n({ name: "talk", action: "chat", instruction: "Keep talking.", transitions: ["talk"] })]);
    const agent = new Agent(g, { model: new TestModel((req) => `answer ${req.messages.length}`) });
    let memory: Memory | undefined;
    for (let i = 0; i < 120; i++) memory = (await agent.reply(`message ${i}`, memory)).memory;
    const edits: ((m: Memory) => void)[] = [
      (m) => (m.stack[0]!.turns[0]!.agent = "forged"),
      (m) => (m.stack[0]!.turns[60]!.user = "forged"),
      (m) => (m.stack[0]!.turns.at(-1)!.agent = "forged"),
      (m) => m.stack[0]!.turns.splice(5, 1),
      (m) => (m.stack[0]!.turns[3]!.category = "x"),
      (m) => (m.stack[0]!.prompt = "forged"),
      (m) => (m.stack[0]!.vars._last_user_reply = "forged"),
      (m) => (m.turn = 3),
      (m) => (m.visits.talk = 1),
    ];
    for (const [k, edit] of edits.entries()) {
      const edited = roundTrip(memory!);
      edit(edited);
      await expect(agent.reply("x", edited), `edit ${k}`).rejects.toMatchObject({ code: "tampered_memory" });
    }
    // Taken back as it was, the same memory goes on.
    expect((await agent.reply("x", roundTrip(memory!))).reply).toMatch(/^answer/);
  });

  it("seals a growing conversation as a whole hash of it would: memory through JSON is accepted at every turn", async () => {
    const g = graph([n({ name: "talk", action: "chat", instruction: "Keep talking.", transitions: ["talk"] })]);
    const agent = new Agent(g, { model: new TestModel((req) => `answer ${req.messages.length}`) });
    let memory: Memory | undefined;
    for (let i = 0; i < 40; i++) {
      // Mostly objects (sealed from kept hash states), sometimes through JSON (hashed whole).
      const r = await agent.reply(`message ${i}`, memory && (i % 7 === 3 ? roundTrip(memory) : memory));
      const fresh = new Agent(g, { model: new TestModel(() => "ok") });
      expect((await fresh.reply("check", roundTrip(r.memory))).reply, `turn ${i}`).toBe("ok");
      memory = r.memory;
    }
  });

  it("tells a lone surrogate from the replacement character it would become in UTF-8", async () => {
    const g = graph([
      n({ name: "talk", action: "chat_exact", instruction: "You said: $_last_user_reply", transitions: ["talk"] }),
    ]);
    const agent = new Agent(g, { model: new TestModel() });
    let memory = (await agent.reply("")).memory;
    memory = (await agent.reply("broken \ud83d here", memory)).memory;
    memory = (await agent.reply("fine \ufffd here", memory)).memory;
    const swaps: [string, string][] = [
      ["\ud83d", "\ufffd"],
      ["\ufffd", "\ud83d"],
    ];
    for (const [from, to] of swaps) {
      const edited = JSON.parse(
        JSON.stringify(memory).replaceAll(JSON.stringify(from).slice(1, -1), JSON.stringify(to).slice(1, -1)),
      ) as Memory;
      expect(JSON.stringify(edited)).not.toBe(JSON.stringify(memory));
      await expect(agent.reply("x", edited)).rejects.toMatchObject({ code: "tampered_memory" });
    }
    expect((await agent.reply("x", roundTrip(memory))).reply).toBe("You said: x");
  });

  it("hands out memory frozen all through, and freezes the memory it is given once checked", async () => {
    const { agent, memory } = await saved();
    expect(Object.isFrozen(memory) && Object.isFrozen(memory.stack) && Object.isFrozen(memory.stack[0]!.turns[0])).toBe(
      true,
    );
    expect(Object.isFrozen(memory.stack[0]!.vars.units)).toBe(true);
    expect(() => ((memory.stack[0]!.vars as Record<string, unknown>).units = [])).toThrow(TypeError);
    const given = roundTrip(memory);
    await agent.reply("3/4", given);
    expect(Object.isFrozen(given.stack.at(-1)!.turns[0])).toBe(true);
    // Memory that fails its check is left as it was given.
    const edited = roundTrip(memory);
    edited.turn = 99;
    await expect(agent.reply("3/4", edited)).rejects.toMatchObject({ code: "tampered_memory" });
    expect(Object.isFrozen(edited)).toBe(false);
  });

  it("checks memory frozen on the surface like any other (only what the runtime sealed is taken unchecked)", async () => {
    const { agent, memory } = await saved();
    const edited = roundTrip(memory);
    edited.stack[0]!.vars.units = ["cheating"];
    Object.freeze(edited);
    Object.freeze(edited.stack);
    for (const f of edited.stack) Object.freeze(f);
    await expect(agent.reply("x", edited)).rejects.toMatchObject({ code: "tampered_memory" });
    // A copy of sealed memory with one field changed is not the memory the runtime sealed.
    await expect(agent.reply("x", { ...memory, turn: memory.turn + 1 })).rejects.toMatchObject({
      code: "tampered_memory",
    });
  });

  it("reads memory of format version 1 (a whole-memory checksum) and carries it on as version 2", async () => {
    const v1 = fixture("tutor-memory-v1") as unknown as Memory;
    expect(v1.version).toBe(1);
    const agent = new Agent(fixture("tutor"), { model: tutorModel() });
    const r = await agent.reply("thanks", roundTrip(v1));
    expect(r.reply).toMatch(/^reply of /);
    expect(r.memory.version).toBe(2);
    expect(r.memory.stack[0]!.turns.length + r.memory.stack.at(-1)!.turns.length).toBeGreaterThan(2);
    expect((await agent.reply("1/2", roundTrip(r.memory))).reply).toMatch(/^reply of /);
    const edited = roundTrip(v1);
    edited.stack[1]!.turns[0]!.agent = "forged";
    await expect(agent.reply("thanks", edited)).rejects.toMatchObject({ code: "tampered_memory" });
  });

  it("accepts memory whose keys were reordered (as some databases store JSON)", async () => {
    const { agent, memory } = await saved();
    const reorder = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reorder)
        : v && typeof v === "object"
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reorder(x)]),
            )
          : v;
    expect((await agent.reply("3/4", reorder(memory))).reply).toContain("reply of doUnit.chat_");
  });

  it("refuses memory of another agent", async () => {
    const { memory } = await saved();
    const other = new Agent(fixture("fibonacci"), { model: new TestModel() });
    await expect(other.reply("x", memory)).rejects.toThrow(/belongs to agent 'FractionTutor', not 'Fibonacci'/);
  });
});

describe("resuming on an edited graph", () => {
  const edit = (f: (g: Graph) => void): Graph => {
    const g = fixture("tutor");
    f(g);
    return g;
  };
  async function savedAt(): Promise<Memory> {
    const agent = new Agent(fixture("tutor"), { model: tutorModel() });
    let memory = (await agent.reply("")).memory;
    memory = (await agent.reply("yes", memory)).memory; // waits at doUnit.chat_1, inside doUnit
    return memory;
  }

  it("resumes when edits elsewhere shifted every line", async () => {
    const memory = await savedAt();
    const g = edit((g) => {
      for (const node of g.nodes)
        if (node.loc) node.loc = { ...node.loc, line: node.loc.line + 3, endLine: node.loc.endLine + 3 };
    });
    const r = await new Agent(g, { model: tutorModel() }).reply("3/4", memory);
    expect(r.reply).toMatch(/^reply of doUnit\.chat_[23] /);
    expect(r.memory.graph.hash).toBe(memory.graph.hash);
  });

  it("resumes when other nodes changed or were added, adopting new globals", async () => {
    const memory = await savedAt();
    const g = edit((g) => {
      g.globals.extra = "new field";
      g.nodes.find((x) => x.name === "main.chat_1")!.instruction = "Well done on $tmp_1 units ($extra).";
      g.nodes.push(n({ name: "unused", action: "chat_exact", instruction: "never" }));
    });
    const agent = new Agent(g, { model: tutorModel() });
    let r = await agent.reply("3/4", memory);
    expect(r.memory.graph.hash).not.toBe(memory.graph.hash);
    for (const text of ["thanks", "1/2", "ok"]) r = await agent.reply(text, r.memory);
    expect(r.memory.stack[0]!.vars.extra).toBe("new field");
  });

  it("adopts new globals named like Object.prototype members, and reads them as variables", async () => {
    // Names every plain object seems to have: an `in` check would take them as present already.
    const names = [
      "valueOf",
      "toString",
      "constructor",
      "hasOwnProperty",
      "isPrototypeOf",
      "__proto__",
      "__defineGetter__",
    ];
    const nodes = (instruction: string) => [
      n({ name: "talk", action: "chat_exact", instruction: "hello", transitions: ["show"] }),
      n({ name: "show", action: "chat_exact", instruction, transitions: ["show"] }),
    ];
    const before = graph(nodes("nothing yet"));
    const first = (await new Agent(before, { model: new TestModel(() => "x") }).reply("")).memory;
    const globals = JSON.parse(`{${names.map((k, i) => `"${k}": "g${i}"`).join(", ")}}`) as Graph["globals"];
    const after = graph(nodes(names.map((k) => `${k}=$${k}`).join(" ")), { globals });
    const r = await new Agent(after, { model: new TestModel(() => "x") }).reply("hi", roundTrip(first));
    const vars = r.memory.stack[0]!.vars;
    for (const [i, k] of names.entries()) expect(Object.getOwnPropertyDescriptor(vars, k)?.value, k).toBe(`g${i}`);
    expect(Object.getPrototypeOf(vars)).toBe(Object.prototype);
    expect(r.reply).toBe(names.map((k, i) => `${k}=g${i}`).join(" "));
    expect(roundTrip(r.memory)).toEqual(r.memory);
  });

  it("refuses when the node the conversation waits at changed, naming it and its location", async () => {
    const memory = await savedAt();
    const g = edit((g) => (g.nodes.find((x) => x.name === "doUnit.chat_1")!.instruction = "Give a problem: $problem"));
    const err = await new Agent(g, { model: tutorModel() }).reply("3/4", memory).catch((e) => e);
    expect(err).toMatchObject({ code: "stale_memory", node: "doUnit.chat_1", location: "samples/tutor/agent.ts:22:5" });
    expect(err.message).toMatch(
      /node 'doUnit\.chat_1' \(in function 'doUnit'\), where the conversation stands, is not what it was/,
    );
  });

  it("refuses when a calling node the conversation will return to is gone", async () => {
    const memory = await savedAt();
    const g = edit((g) => {
      const call = g.nodes.find((x) => x.name === "main.call_1")!;
      call.name = "main.call_renamed";
      g.nodes.find((x) => x.name === "main.for_1.item")!.transitions = ["main.call_renamed"];
    });
    await expect(new Agent(g, { model: tutorModel() }).reply("3/4", memory)).rejects.toThrow(
      /stands on node 'main\.call_1', which the graph no longer has/,
    );
  });
});

describe("memory size", () => {
  it("stays within 2.5x the transcript it holds over a long conversation", async () => {
    const g = graph([n({ name: "talk", action: "chat", instruction: "Keep talking.", transitions: ["talk"] })]);
    const agent = new Agent(g, {
      model: new TestModel(
        queue(
          Array.from(
            { length: 300 },
            (_, i) => `This is my answer number ${i}, with some more words to make it a realistic reply.`,
          ),
        ),
      ),
    });
    let memory: Memory | undefined;
    let transcript = 0;
    for (let i = 0; i < 300; i++) {
      const user = `Here is user message ${i}, asking something.`;
      const r = await agent.reply(user, memory);
      transcript += user.length + r.reply!.length;
      memory = r.memory;
    }
    expect(JSON.stringify(memory).length / transcript).toBeLessThan(2.5);
  });
});
