// Replay: a recorded trace re-runs a conversation without a model, node by node, with the same results.
import { describe, expect, inject, it, onTestFinished } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Agent,
  AgentError,
  ReplayDivergence,
  ReplayModel,
  RecordingError,
  ScriptedModel,
  conversationsOf,
  defineTool,
  parseTrace,
  recordedCalls,
  replayConversation,
  type Graph,
  type GraphNode,
  type ReplayedTurn,
  type TraceEvent,
} from "@autograms/runtime";
import { graph, n } from "../runtime/helpers.js";
import { record, sampleConversation, sampleGraph } from "./support.js";
import { autogramsInProcess } from "../cli/support/run-cli.js";

async function all(turns: AsyncGenerator<ReplayedTurn>): Promise<ReplayedTurn[]> {
  const out: ReplayedTurn[] = [];
  for await (const t of turns) out.push(t);
  return out;
}

describe("replayConversation", () => {
  for (const sample of ["tutor", "recruiter"]) {
    it(`replays the ${sample} sample's conversation from its JSONL trace: same replies, memory and trace`, async () => {
      const recorded = await record(sample);
      expect(recorded.replies.length).toBeGreaterThan(4);
      const replayed = await all(replayConversation(sampleGraph(sample), recorded.jsonl));
      expect(replayed.map((t) => t.reply)).toEqual(recorded.replies);
      expect(replayed.map((t) => t.memory)).toEqual(recorded.memories);
      // Durations aside: the replay waits for nothing.
      const withoutMs = (events: TraceEvent[]) => events.map(({ ms: _ms, ...e }) => e);
      expect(replayed.map((t) => withoutMs(t.events))).toEqual(recorded.turns.map(withoutMs));
      expect(replayed.at(-1)!.done).toBe(true);
    });
  }

  it("reads back a first message that was not empty from the second turn's events", async () => {
    const g = graph([
      n({ name: "ask", action: "chat", instruction: "Answer: $_last_user_reply", transitions: ["ask"] }),
    ]);
    const model = new ScriptedModel({ complete: ["one", "two"] });
    const agent = new Agent(g, { model });
    const events: TraceEvent[] = [];
    const a = await agent.reply("hello there", undefined, { trace: (e) => events.push(e) });
    const b = await agent.reply("again", a.memory, { trace: (e) => events.push(e) });
    const [conversation] = conversationsOf(events);
    expect(conversation!.turns.map((t) => t.user)).toEqual(["hello there", "again"]);
    const replayed = await all(replayConversation(g, events));
    expect(replayed.map((t) => [t.user, t.reply])).toEqual([
      ["hello there", "one"],
      ["again", "two"],
    ]);
    expect(replayed[1]!.memory).toEqual(b.memory);
  });

  it("stops at the first node where an edited graph asks the model something else, located there", async () => {
    const recorded = await record("recruiter");
    const edited = structuredClone(sampleGraph("recruiter")) as Graph;
    const node = edited.nodes.find((x) => x.name === "ask_salary")!;
    node.instruction = "Ask about their salary expectations, in a friendly way.";
    const replay = all(replayConversation(edited, recorded.events));
    const error = await replay.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    const e = error as AgentError;
    expect(e.code).toBe("model");
    expect(e.node).toBe("ask_salary");
    expect(e.location).toBe(`samples/recruiter/agent.ts:${node.loc!.line}:${node.loc!.column}`);
    expect(e.message).toContain("after 1 attempt: replay diverged at model call");
    expect(e.message).toMatch(
      /the messages differ: message \d+ \(user\) at character \d+: recorded ".*Thank the candidate.*", now ".*Ask about their salary/,
    );
  });

  it("checks every step, not only model calls: a changed code node diverges where its value differs", async () => {
    const g = graph(
      [
        n({
          name: "init",
          action: "code",
          instruction: "let n = 1",
          transitions: ["ask"],
          loc: { line: 3, column: 5, endLine: 3, endColumn: 15 },
        }),
        n({ name: "ask", action: "chat_exact", instruction: "n is $n", transitions: ["ask"] }),
      ],
      { source: { file: "agent.ts", sha256: "0".repeat(64) } },
    );
    const events: TraceEvent[] = [];
    await new Agent(g, { model: new ScriptedModel({}) }).reply("", undefined, { trace: (e) => events.push(e) });
    const edited = structuredClone(g);
    edited.nodes[0]!.instruction = "let n = 2";
    const error = await all(replayConversation(edited, events)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplayDivergence);
    expect((error as ReplayDivergence).message).toBe(
      'replay diverged in turn 1, step 1, at node \'init\' (code): its code differs at character 9: recorded "let n = 1", now "let n = 2"',
    );
    expect([(error as ReplayDivergence).file, (error as ReplayDivergence).line]).toEqual(["agent.ts", 3]);
  });

  it("says where an edited graph takes another transition", async () => {
    const recorded = await record("tutor");
    const edited = structuredClone(sampleGraph("tutor")) as Graph;
    // ask_ready was answered "yes"; make "yes" lead straight to the goodbye.
    edited.nodes.find((x) => x.name === "ask_ready")!.transitions[0] = "goodbye";
    const error = await all(replayConversation(edited, recorded.events)).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      "replay diverged in turn 2, step 2, at node 'ask_ready' (transition): its target differs at character 1: " +
        'recorded "main.for_of_6ddc.iterable", now "goodbye"',
    );
  });
});

describe("ReplayModel", () => {
  it("answers complete() and choose() with the recorded answers, regenerations included", async () => {
    const events = [
      {
        kind: "generate",
        node: "a",
        loc: null,
        action: "chat",
        stack: ["main"],
        changes: [],
        purpose: "chat",
        messages: [{ role: "user", content: "hi" }],
        raw: ["bad", "good"],
        output: "good",
      },
      {
        kind: "transition",
        node: "a",
        loc: null,
        action: "chat",
        stack: ["main"],
        changes: [],
        target: "b",
        to: "b",
        resolved: "name",
        decisions: [{ purpose: "transition", prompt: "Q?", choices: ["x", "y"], chosen: 1 }],
      },
    ] as TraceEvent[];
    expect(recordedCalls(events).map((c) => [c.kind, c.node, c.answer])).toEqual([
      ["complete", "a", "bad"],
      ["complete", "a", "good"],
      ["choose", "a", 1],
    ]);
    const model = new ReplayModel(events);
    const messages = [{ role: "user" as const, content: "hi" }];
    expect(await model.complete({ node: "a", purpose: "chat", messages })).toBe("bad");
    expect(await model.complete({ node: "a", purpose: "chat", messages })).toBe("good");
    await expect(model.complete({ node: "a", purpose: "chat", messages })).rejects.toThrow(
      "replay diverged at model call 3 of 3 (event 2 of the recording): the recording made a choice at node 'a' here, but the run asks node 'a' to generate text (chat)",
    );
    expect(await model.choose({ node: "a", prompt: "Q?", choices: ["x", "y"] })).toBe(1);
    expect(model.remaining).toBe(0);
    await expect(model.choose({ node: "b", prompt: "Q?", choices: ["x", "y"] })).rejects.toThrow(
      "replay diverged: node 'b' asks the model to choose, but the recording has no model answer left (it had 3)",
    );
  });

  it("checks the node, the question and the choices, or only the node when asked", async () => {
    const events = [
      {
        kind: "quit",
        node: "q",
        loc: { line: 7, column: 3, endLine: 7, endColumn: 9 },
        action: "transition",
        stack: ["main"],
        changes: [],
        decisions: [{ purpose: "interjection", prompt: "Is it so?", choices: ["A", "None of the above."], chosen: 0 }],
      },
    ] as TraceEvent[];
    const strict = new ReplayModel(events, { source: "t.jsonl", file: "agent.ts" });
    await expect(
      strict.choose({ node: "other", prompt: "Is it so?", choices: ["A", "None of the above."] }),
    ).rejects.toThrow(
      "(event 1 of t.jsonl): the recording made a choice at node 'q' (agent.ts:7:3) here, but the run asks node 'other' to choose",
    );
    await expect(
      strict.choose({ node: "q", prompt: "Is it so?", choices: ["B", "None of the above."] }),
    ).rejects.toThrow('the choices differ: recorded ["A","None of the above."], now ["B","None of the above."]');
    await expect(
      strict.choose({ node: "q", prompt: "Is it not?", choices: ["A", "None of the above."] }),
    ).rejects.toThrow('the question differs at character 7: recorded "Is it so?", now "Is it not?"');
    const lax = new ReplayModel(events, { check: "node" });
    expect(await lax.choose({ node: "q", prompt: "Something else", choices: ["A", "B"] })).toBe(0);
  });
});

describe("trace files", () => {
  it("parses JSONL, skipping records that are not events and naming the line of a broken one", () => {
    const line = JSON.stringify({
      kind: "pass",
      node: "x",
      loc: null,
      action: "transition",
      stack: ["main"],
      changes: [],
    });
    expect(parseTrace(`{"kind":"header","agent":"A"}\n${line}\n\n${line}\n`)).toHaveLength(2);
    expect(() => parseTrace(`${line}\n{oops\n`, "t.jsonl")).toThrow(RecordingError);
    expect(() => parseTrace(`${line}\n{oops\n`, "t.jsonl")).toThrow(/^t\.jsonl:2: not a JSON line$/);
    expect(() => parseTrace(`[1]`, "t.jsonl")).toThrow("t.jsonl:1: not a JSON object");
    expect(() => parseTrace(`{"kind":"code"}`, "t.jsonl")).toThrow("t.jsonl:1: a 'code' event without a node");
  });

  it("cuts a simulation's trace of several conversations into conversations and turns", async () => {
    const g = sampleGraph("tutor");
    const events: TraceEvent[] = [];
    const model = new ScriptedModel({ complete: () => "yes", choose: () => 0 });
    const agent = new Agent(g, { model });
    const one = await agent.simulate({ maxTurns: 3, random: () => 0.1, trace: (e) => events.push(e) });
    const two = await agent.simulate({ maxTurns: 2, random: () => 0.1, trace: (e) => events.push(e) });
    const conversations = conversationsOf(events);
    expect(conversations.map((c) => c.turns.length)).toEqual([3, 2]);
    expect(conversations[0]!.turns.map((t) => t.user)).toEqual([
      "",
      ...one.transcript
        .filter((t) => t.role === "user")
        .slice(0, 2)
        .map((t) => t.text),
    ]);
    expect(conversations.flatMap((c) => c.turns.flatMap((t) => t.events))).toEqual(events);
    const second = await all(replayConversation(g, events, { conversation: 1 }));
    expect(second.map((t) => t.reply)).toEqual(two.transcript.filter((t) => t.role === "agent").map((t) => t.text));
    await expect(all(replayConversation(g, events, { conversation: 2 }))).rejects.toThrow(
      "the recording holds 2 conversations, not a conversation 3",
    );
  });
});

describe("traces the CLI writes", () => {
  it("replays `autograms chat --trace` output without a model", async () => {
    const buildError = inject("cliBuildError");
    if (buildError) throw new Error(buildError);
    const dir = mkdtempSync(join(tmpdir(), "autograms-replay-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, "chat.jsonl");
    const turns = sampleConversation("tutor").turns!;
    const users = turns.slice(1).map((t) => t.user);
    const r = await autogramsInProcess(["chat", "samples/tutor/agent.ts", "--offline", "--trace", file], {
      input: users.join("\n") + "\n",
    });
    expect(r.code, r.stderr).toBe(0);
    const replayed = await all(
      replayConversation(sampleGraph("tutor"), readFileSync(file, "utf8"), { source: "chat.jsonl" }),
    );
    expect(replayed.map((t) => t.user)).toEqual(turns.map((t) => t.user));
    expect(replayed.map((t) => t.reply)).toEqual(turns.map((t) => t.agent));
  });

  it("groups events by their conversation number, so a conversation cut short by an error stays apart", async () => {
    const g = sampleGraph("tutor");
    const agent = new Agent(g, { model: new ScriptedModel({ complete: () => "yes", choose: () => 0 }) });
    const tagged: TraceEvent[] = [];
    await agent.simulate({
      maxTurns: 2,
      random: () => 0.1,
      trace: (e) => tagged.push({ conversation: 1, ...e } as TraceEvent),
    });
    tagged.splice(tagged.findIndex((e) => e.kind === "user") + 2);
    const second: TraceEvent[] = [];
    const two = await agent.simulate({ maxTurns: 2, random: () => 0.1, trace: (e) => second.push(e) });
    tagged.push(...second.map((e) => ({ conversation: 2, ...e }) as TraceEvent));
    const conversations = conversationsOf(tagged);
    expect(conversations.map((c) => c.turns.length)).toEqual([2, 2]);
    const replayed = await all(replayConversation(g, tagged, { conversation: 1 }));
    expect(replayed.map((t) => t.reply)).toEqual(two.transcript.filter((t) => t.role === "agent").map((t) => t.text));
  });
});

describe("replaying native tool calls", () => {
  const adder = (run: (args: { a: number; b: number }) => number) =>
    defineTool({
      name: "add",
      description: "Adds two numbers.",
      parameters: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
      run,
    });
  const add = adder(({ a, b }) => a + b);
  const g = graph(
    [
      n({
        name: "answer",
        action: "chat",
        instruction: "Answer with the tools.",
        tools: ["add"],
        transitions: ["answer"],
      } as GraphNode),
    ],
    { tools: { add: { module: "./t.js", export: "add" } } },
  );

  it("answers completeWithTools() from the recorded tool answers, the tools running again, and checks every step", async () => {
    const model = new ScriptedModel({
      tools: [
        { text: "Let me add.", toolCalls: [{ id: "c1", name: "add", arguments: { a: 2, b: 40 } }] },
        "It is 42.",
        { toolCalls: [{ id: "c2", name: "add", arguments: { a: 1, b: 1 } }] },
        "Two.",
      ],
    });
    const agent = new Agent(g, { model, tools: { add } });
    const events: TraceEvent[] = [];
    const one = await agent.reply("2 + 40?", undefined, { trace: (e) => events.push(e) });
    const two = await agent.reply("1 + 1?", one.memory, { trace: (e) => events.push(e) });
    expect(events.filter((e) => e.kind === "tool_call").map((e) => e.kind === "tool_call" && e.result)).toEqual([
      42, 2,
    ]);
    const jsonl = events.map((e) => JSON.stringify(e)).join("\n");
    expect(recordedCalls(parseTrace(jsonl)).map((c) => [c.kind, c.answer])).toEqual([
      [
        "tools",
        {
          text: "Let me add.",
          toolCalls: [{ id: "c1", name: "add", arguments: '{"a":2,"b":40}' }],
          finishReason: "tool_calls",
        },
      ],
      ["tools", { text: "It is 42.", toolCalls: [], finishReason: "stop" }],
      [
        "tools",
        { text: "", toolCalls: [{ id: "c2", name: "add", arguments: '{"a":1,"b":1}' }], finishReason: "tool_calls" },
      ],
      ["tools", { text: "Two.", toolCalls: [], finishReason: "stop" }],
    ]);
    const replayed = await all(replayConversation(g, jsonl, { tools: { add }, first: "2 + 40?" }));
    expect(replayed.map((t) => t.reply)).toEqual(["It is 42.", "Two."]);
    expect(replayed[1]!.memory).toEqual(two.memory);
    // A tool that now answers differently is a divergence at its step.
    const lying = adder(() => 41);
    const error = await all(replayConversation(g, jsonl, { tools: { add: lying }, first: "2 + 40?" })).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(
      /^replay diverged in turn 1, step 1, at node 'answer' \(tool_call\): its result differs at character 2: recorded "42", now "41"$/,
    );
  });
});
