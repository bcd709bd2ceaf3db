// The reply's text while it is written (RunOptions.onText): deltas and resets for chat nodes only,
// and the promise that the deltas since the last reset add up to the reply, whatever the checks
// (banned phrases, chat_suffix) make of the model's answers.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  Agent,
  AgentError,
  ScriptedModel,
  defineTool,
  type ChatModel,
  type CompletionRequest,
  type GraphNode,
  type ReplyChunk,
  type TextAnswer,
} from "@autograms/runtime";
import { openStore, runTurn } from "@autograms/store";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TestModel, graph, n, queue } from "./helpers.js";

/** Collects the chunks of a run; `text(node)` is what the deltas since the last reset add up to. */
function chunks() {
  const all: ReplyChunk[] = [];
  return {
    all,
    onText: (c: ReplyChunk) => void all.push(c),
    text(node: string): string {
      let text = "";
      for (const c of all) if (c.node === node) text = c.kind === "reset" ? "" : text + c.text;
      return text;
    },
    deltas: () => all.map((c) => (c.kind === "delta" ? c.text : "<reset>")),
  };
}

const chatAgent = (model: ChatModel, node: Partial<GraphNode> = {}, config: Partial<Agent["config"]> = {}) =>
  new Agent(
    graph([
      n({
        name: "greet",
        action: "chat",
        instruction: "Greet the user.",
        transitions: ["greet"],
        ...node,
      } as GraphNode),
    ]),
    {
      model,
      config: { retryDelayMs: 0, ...config },
    },
  );

describe("a chat reply streamed", () => {
  it("sends the model's pieces as they come, and they add up to the reply", async () => {
    const model = new ScriptedModel({ complete: [["Hel", "lo ", "", "there!"]] });
    const c = chunks();
    const r = await chatAgent(model).reply("hi", undefined, { onText: c.onText });
    expect(r.reply).toBe("Hello there!");
    expect(c.all).toEqual([
      { kind: "delta", node: "greet", text: "Hel" },
      { kind: "delta", node: "greet", text: "lo" },
      { kind: "delta", node: "greet", text: " there!" },
    ]);
  });

  it("sends a piece before the model has finished its answer", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const c = chunks();
    const model = new TestModel(async (req) => {
      req.onText?.("Thinking ");
      await held;
      req.onText?.("done.");
      return "Thinking done.";
    });
    const run = chatAgent(model).reply("hi", undefined, {
      onText: (chunk) => {
        c.onText(chunk);
        release();
      },
    });
    expect((await run).reply).toBe("Thinking done.");
    expect(c.deltas()).toEqual(["Thinking", " done."]);
  });

  it("leaves out the whitespace the reply is trimmed of", async () => {
    const c = chunks();
    const r = await chatAgent(new ScriptedModel({ complete: [["\n ", " Hi", " there ", "\n\n"]] })).reply(
      "",
      undefined,
      { onText: c.onText },
    );
    expect(r.reply).toBe("Hi there");
    expect(c.deltas()).toEqual(["Hi", " there"]);
  });

  it("sends the whole reply as one delta when the model does not stream", async () => {
    const c = chunks();
    const model = new TestModel((req) => {
      expect(req.onText).toBeTypeOf("function");
      return "  All at once. ";
    });
    const r = await chatAgent(model).reply("hi", undefined, { onText: c.onText });
    expect(r.reply).toBe("All at once.");
    expect(c.all).toEqual([{ kind: "delta", node: "greet", text: "All at once." }]);
  });

  it("sends a chat_exact reply as one delta, and gives the model no onText without a listener", async () => {
    const exact = new Agent(
      graph([n({ name: "hello", action: "chat_exact", instruction: "Hello, $name!", transitions: ["hello"] })], {
        globals: { name: "Ada" },
      }),
      { model: new TestModel() },
    );
    const c = chunks();
    expect((await exact.reply("", undefined, { onText: c.onText })).reply).toBe("Hello, Ada!");
    expect(c.all).toEqual([{ kind: "delta", node: "hello", text: "Hello, Ada!" }]);
    const model = new TestModel();
    await chatAgent(model).reply("hi");
    expect(model.completions[0]!.onText).toBeUndefined();
  });

  it("refuses an onText that is not a function", async () => {
    await expect(chatAgent(new TestModel()).reply("hi", undefined, { onText: "yes" as never })).rejects.toThrow(
      AgentError,
    );
  });
});

describe("checks on the answer", () => {
  it("withdraws an answer with a banned phrase (never showing the phrase) and streams the new one", async () => {
    const model = new ScriptedModel({
      complete: [
        ["Sure. As an ", "AI model, I ", "cannot."],
        ["Here ", "you go."],
      ],
    });
    const c = chunks();
    const r = await chatAgent(model, {}, { bannedPhrases: ["as an AI model"] }).reply("hi", undefined, {
      onText: c.onText,
    });
    expect(r.reply).toBe("Here you go.");
    expect(c.deltas()).toEqual(["Sure.", "<reset>", "Here", " you go."]);
    expect(c.text("greet")).toBe(r.reply);
  });

  it("keeps the last answer with a banned phrase when no attempt is left, sending what was held back", async () => {
    const model = new ScriptedModel({
      complete: [
        ["Sorry, I ", "cannot."],
        ["Sorry, I ", "cannot do that."],
      ],
    });
    const c = chunks();
    const r = await chatAgent(model, {}, { bannedPhrases: ["I cannot"] }).reply("hi", undefined, { onText: c.onText });
    expect(r.reply).toBe("Sorry, I cannot do that.");
    expect(c.deltas()).toEqual(["Sorry,", "<reset>", "Sorry,", " I cannot do that."]);
  });

  it("streams a chat_suffix answer without its ** markers, then adds the completed text", async () => {
    const suffix = "Shall we move on to the next unit?";
    const complete = async (answer: TextAnswer) => {
      const c = chunks();
      const r = await chatAgent(new ScriptedModel({ complete: [answer] }), {
        action: "chat_suffix",
        instruction: suffix,
      }).reply("done", undefined, { onText: c.onText });
      return { reply: r.reply, deltas: c.deltas(), text: c.text("greet") };
    };
    expect(await complete(["Well done! *", "*Shall we move", " on to the next unit?*", "*"])).toEqual({
      reply: `Well done! ${suffix}`,
      deltas: ["Well done!", " Shall we move", " on to the next unit?"],
      text: `Well done! ${suffix}`,
    });
    // Cut short: the beginning of the text is there, and the rest is appended.
    expect(await complete(["Well done! **Shall we ", "move on"])).toEqual({
      reply: `Well done! ${suffix}`,
      deltas: ["Well done! Shall we", " move on", " to the next unit?"],
      text: `Well done! ${suffix}`,
    });
    // The beginning is there but the answer goes elsewhere: what was shown does not lead to the reply.
    expect(await complete(["Well done! Shall we move on now", " or later?"])).toEqual({
      reply: `Well done! ${suffix}`,
      deltas: ["Well done! Shall we move on now", " or later?", "<reset>", `Well done! ${suffix}`],
      text: `Well done! ${suffix}`,
    });
  });

  it("falls back to a chat_suffix's text after a reset when no answer fits", async () => {
    const model = new ScriptedModel({
      complete: [
        ["Nice ", "weather."],
        ["Lovely ", "day."],
      ],
    });
    const c = chunks();
    const r = await chatAgent(model, { action: "chat_suffix", instruction: "Ready for the quiz?" }).reply(
      "hi",
      undefined,
      { onText: c.onText },
    );
    expect(r.reply).toBe("Ready for the quiz?");
    expect(c.deltas()).toEqual(["Nice", " weather.", "<reset>", "Lovely", " day.", "<reset>", "Ready for the quiz?"]);
  });

  it("withdraws the text of an attempt that failed and was tried again", async () => {
    let calls = 0;
    const model = new TestModel((req) => {
      req.onText?.(`Attempt ${++calls} `);
      if (calls === 1) throw new Error("connection reset");
      req.onText?.("worked.");
      return `Attempt ${calls} worked.`;
    });
    const c = chunks();
    const r = await chatAgent(model).reply("hi", undefined, { onText: c.onText });
    expect(r.reply).toBe("Attempt 2 worked.");
    expect(c.deltas()).toEqual(["Attempt 1", "<reset>", "Attempt 2", " worked."]);
  });
});

describe("what never streams", () => {
  it("thoughts, transition choices and the interjection question: only the chat nodes' text is sent", async () => {
    const g = graph([
      n({ name: "think", action: "thought", instruction: "Think about it.", transitions: ["route"] }),
      n({
        name: "route",
        action: "transition",
        transitions: ["a", "b"],
        transition_question: "Which?",
        transition_choices: ["a", "b"],
      }),
      n({ name: "a", action: "chat", instruction: "Say A.", transitions: ["think"] }),
      n({ name: "b", action: "chat", instruction: "Say B.", transitions: ["think"] }),
      n({
        name: "help",
        action: "chat",
        instruction: "Help.",
        transitions: ["think"],
        condition_interjection: "The user asks for help.",
      }),
    ]);
    const model = new ScriptedModel({
      complete: [
        ["secret ", "thought"],
        ["Said ", "B."],
        ["another ", "thought"],
        ["Said ", "A."],
      ],
      choose: ["b", "None of the above.", "a"],
    });
    const c = chunks();
    const agent = new Agent(g, { model });
    const first = await agent.reply("hi", undefined, { onText: c.onText });
    const second = await agent.reply("go on", first.memory, { onText: c.onText });
    expect([first.reply, second.reply]).toEqual(["Said B.", "Said A."]);
    expect(c.all).toEqual([
      { kind: "delta", node: "b", text: "Said" },
      { kind: "delta", node: "b", text: " B." },
      { kind: "delta", node: "a", text: "Said" },
      { kind: "delta", node: "a", text: " A." },
    ]);
    const heard = model.calls.map((call) => [call.kind, "onText" in call.request && typeof call.request.onText]);
    expect(heard).toEqual([
      ["complete", false],
      ["choose", false],
      ["complete", "function"],
      ["choose", false],
      ["complete", false],
      ["choose", false],
      ["complete", "function"],
    ]);
  });

  it("a simulated user's answer", async () => {
    const seen: CompletionRequest["onText"][] = [];
    const model = new TestModel((req) => {
      seen.push(req.onText);
      return req.purpose === "user" ? "I am the user." : "Hello.";
    });
    const agent = chatAgent(model);
    const c = chunks();
    const { memory } = await agent.reply("", undefined, { onText: c.onText });
    const user = await agent.simulateUser(memory);
    expect(user.text).toBe("I am the user.");
    expect(seen.map((f) => typeof f)).toEqual(["function", "undefined"]);
  });
});

describe("a node that calls tools natively", () => {
  const add = defineTool({
    name: "add",
    description: "Adds two numbers.",
    parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    run: ({ a, b }: { a: number; b: number }) => a + b,
  });
  const toolAgent = (model: ChatModel) =>
    new Agent(
      graph(
        [
          n({
            name: "answer",
            action: "chat",
            instruction: "Answer.",
            tools: ["add"],
            transitions: ["answer"],
          } as GraphNode),
        ],
        { tools: { add: { module: "./t.js", export: "add" } } },
      ),
      { model, tools: { add } },
    );

  it("streams the final text, withdrawing the text of a round that called tools", async () => {
    const model = new ScriptedModel({
      tools: [
        { text: ["Let me ", "add."], toolCalls: [{ name: "add", arguments: { a: 2, b: 40 } }] },
        ["It is ", "42."],
      ],
    });
    const c = chunks();
    const r = await toolAgent(model).reply("2+40?", undefined, { onText: c.onText });
    expect(r.reply).toBe("It is 42.");
    expect(c.deltas()).toEqual(["Let me", " add.", "<reset>", "It is", " 42."]);
  });

  it("sends a thought's tool answers nowhere", async () => {
    const g = graph(
      [
        n({ name: "work", action: "thought", instruction: "Add.", tools: ["add"], transitions: ["tell"] } as GraphNode),
        n({ name: "tell", action: "chat_exact", instruction: "Done.", transitions: ["tell"] }),
      ],
      { tools: { add: { module: "./t.js", export: "add" } } },
    );
    const model = new ScriptedModel({ tools: [["4", "2"]] });
    const c = chunks();
    await new Agent(g, { model, tools: { add } }).reply("", undefined, { onText: c.onText });
    expect(c.all).toEqual([{ kind: "delta", node: "tell", text: "Done." }]);
  });
});

describe("a turn of a stored thread", () => {
  it("streams through runTurn", async () => {
    const dir = mkdtempSync(join(tmpdir(), "autograms-stream-"));
    const store = await openStore(`sqlite:${join(dir, "threads.db")}`);
    try {
      const c = chunks();
      const agent = chatAgent(new ScriptedModel({ complete: [["Stored ", "and ", "streamed."]] }));
      const turn = await runTurn(store, agent, "t1", null, { onText: c.onText });
      expect(turn.reply).toBe("Stored and streamed.");
      expect(c.deltas()).toEqual(["Stored", " and", " streamed."]);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the listener", () => {
  it("fails the run with what it throws, not as a model failure", async () => {
    const r = chatAgent(new ScriptedModel({ complete: [["a", "b"]] })).reply("hi", undefined, {
      onText: () => {
        throw new RangeError("screen gone");
      },
    });
    await expect(r).rejects.toThrow(new RangeError("screen gone"));
  });

  it("hears nothing from a model that goes on writing after the run's deadline", async () => {
    let write!: (t: string) => void;
    const model = new TestModel((req) => {
      write = req.onText!;
      write("Early ");
      return new Promise<string>(() => undefined);
    });
    const c = chunks();
    const run = chatAgent(model).reply("hi", undefined, { onText: c.onText, deadlineMs: 50 });
    await expect(run).rejects.toMatchObject({ code: "deadline" });
    write("late words");
    expect(c.deltas()).toEqual(["Early"]);
  });
});

describe("the promise: the deltas since the last reset add up to the reply", () => {
  // Answers are built from words that trip the checks: whitespace, ** markers, a banned phrase and
  // pieces of the chat_suffix text, cut into pieces anywhere.
  const suffix = "Ready for the next one?";
  const word = fc.constantFrom(
    "Hi",
    "there",
    " ",
    "\n",
    "**",
    "*",
    "As an AI",
    "as an",
    "Ready for",
    "Ready for the next one?",
    "next",
    "one?",
    "ok.",
  );
  const answer = fc.array(word, { maxLength: 8 }).chain((words) => {
    const text = words.join(" ");
    return fc.array(fc.nat({ max: text.length }), { maxLength: 6 }).map((cuts) => {
      const at = [0, ...[...new Set(cuts)].sort((a, b) => a - b), text.length];
      return at.slice(1).map((end, i) => text.slice(at[i], end));
    });
  });

  it("holds for chat and chat_suffix nodes, with and without banned phrases, streaming or not", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("chat", "chat_suffix"),
        fc.boolean(),
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.tuple(answer, fc.boolean()), { minLength: 3, maxLength: 3 }),
        async (action, banning, attempts, answers) => {
          const next = queue(answers);
          const model = new TestModel((req) => {
            const [pieces, streams] = next();
            if (streams) for (const p of pieces) if (p) req.onText?.(p);
            return pieces.join("");
          });
          const agent = chatAgent(
            model,
            { action: action as GraphNode["action"], instruction: action === "chat" ? "Greet." : suffix },
            { generationAttempts: attempts, bannedPhrases: banning ? ["as an ai"] : [] },
          );
          const c = chunks();
          const r = await agent.reply("hi", undefined, { onText: c.onText });
          expect(c.text("greet")).toBe(r.reply);
          expect(c.all.every((chunk) => chunk.node === "greet" && (chunk.kind === "reset" || chunk.text !== ""))).toBe(
            true,
          );
          // What streams before the answer is accepted never shows a banned phrase or a marker.
          const accepted = c.all.length - 1;
          for (const chunk of c.all.slice(0, accepted)) {
            if (chunk.kind !== "delta") continue;
            if (banning) expect(chunk.text.toLowerCase()).not.toContain("as an ai");
            if (action === "chat_suffix") expect(chunk.text).not.toContain("**");
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("holds over turns and tool rounds", async () => {
    const add = defineTool({
      name: "add",
      description: "Adds.",
      parameters: { type: "object", properties: {} },
      run: () => 1,
    });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(answer, fc.boolean()), { minLength: 1, maxLength: 4 }), async (rounds) => {
        const tools = rounds.map(([pieces, calls], i) =>
          calls && i < rounds.length - 1 ? { text: pieces, toolCalls: [{ name: "add", arguments: {} }] } : pieces,
        );
        const g = graph(
          [
            n({
              name: "answer",
              action: "chat",
              instruction: "Answer.",
              tools: ["add"],
              transitions: ["answer"],
            } as GraphNode),
          ],
          { tools: { add: { module: "./t.js", export: "add" } } },
        );
        const model = new ScriptedModel({ tools: [...tools, "spare"] });
        const c = chunks();
        const r = await new Agent(g, { model, tools: { add } }).reply("go", undefined, { onText: c.onText });
        expect(c.text("answer")).toBe(r.reply);
      }),
      { numRuns: 200 },
    );
  });
});
