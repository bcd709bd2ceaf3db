// GET /api/threads/:id/turns/:seq/calls: what a stored turn sent to the model and got back,
// rebuilt by replaying the turn from its recorded answers (prompts are not stored). The prompts
// must be exactly what the model received, and no tool may act a second time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  Agent,
  OfflineModel,
  ScriptedModel,
  defineTool,
  type ChoiceRequest,
  type CompletionRequest,
  type Graph,
  type TraceEvent,
} from "@autograms/runtime";
import { lookup, type Args } from "../../samples/react-tools/tools.js";
import { listen, type RunningServer } from "@autograms/server";
import { openStore, replayRecorded, type Store } from "@autograms/store";
import { compile } from "@autograms/compiler";
import { sampleGraph, sampleTools } from "../tools/support.js";
import { note, noted } from "./fixtures/replay/actions.js";
import { lookup as lookupWord, looked } from "./fixtures/replay/tools.js";
import { json, tempFolder } from "./support/harness.js";

const ROOT = join(import.meta.dirname, "..", "..");
const folder = tempFolder("autograms-turn-calls-");
let store: Store;
const servers: RunningServer[] = [];
beforeAll(async () => {
  store = await openStore(`sqlite:${join(folder.path, "threads.db")}`);
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await store.close();
  folder.remove();
});

async function serve(agent: Agent, turnCalls?: { concurrent?: number; queue?: number }): Promise<string> {
  const server = await listen({ agent, store, port: 0, ...(turnCalls && { turnCalls }) });
  servers.push(server);
  return server.url;
}
async function say(url: string, thread: string, message: string | null): Promise<void> {
  const res = await fetch(`${url}/api/threads/${thread}/runs`, json({ message, messageId: `${thread}-${message}` }));
  expect(res.status).toBe(200);
  await res.text();
}
const calls = async (url: string, thread: string, seq: number | string) => {
  const res = await fetch(`${url}/api/threads/${thread}/turns/${seq}/calls`);
  return {
    status: res.status,
    body: (await res.json()) as {
      events: TraceEvent[];
      stopped: string | null;
      user: string | null;
      error?: { code: string };
    },
  };
};

/** An agent whose turns call a tool from code (tryTool) and run a custom action's hook. */
function notesGraph(): Graph {
  const file = join(import.meta.dirname, "fixtures", "replay", "agent.ts");
  const { graph } = compile(readFileSync(file, "utf8"), { fileName: file });
  return graph!;
}

describe("a turn's calls, replayed", () => {
  it("gives every multiple-choice question exactly as the model received it", async () => {
    const tutor = JSON.parse(readFileSync(join(ROOT, "samples/tutor/agent.graph.json"), "utf8")) as Graph;
    // The offline model talks the tutor through its sample conversation; every request is recorded.
    const offline = new OfflineModel();
    const model = {
      calls: [] as ({ kind: "complete"; request: CompletionRequest } | { kind: "choose"; request: ChoiceRequest })[],
      complete(request: CompletionRequest) {
        this.calls.push({ kind: "complete", request });
        return offline.complete(request);
      },
      choose(request: ChoiceRequest) {
        this.calls.push({ kind: "choose", request });
        return offline.choose(request);
      },
    };
    const url = await serve(new Agent(tutor, { model }));
    const conversation = JSON.parse(readFileSync(join(ROOT, "samples/tutor/conversation.json"), "utf8")) as {
      turns: { user: string }[];
    };
    await say(url, "tutor", null);
    const kinds = new Set<string>();
    for (const [i, t] of conversation.turns.slice(1, 5).entries()) {
      const before = model.calls.length;
      await say(url, "tutor", t.user);
      const sent = model.calls.slice(before);
      const { status, body } = await calls(url, "tutor", i + 2);
      expect(status).toBe(200);
      expect(body).toMatchObject({ user: t.user, stopped: null });
      // The model calls the replay rebuilt, in order, are the requests the model was sent.
      const rebuilt = body.events.flatMap((e) => [
        ...(e.kind === "generate" ? [{ kind: "complete", messages: e.messages }] : []),
        ...("decisions" in e
          ? (e.decisions as { prompt: string; choices: string[] }[]).map((d) => ({
              kind: "choose",
              prompt: d.prompt,
              choices: d.choices,
            }))
          : []),
      ]);
      expect(rebuilt).toEqual(
        sent.map((c) =>
          c.kind === "complete"
            ? { kind: "complete", messages: c.request.messages }
            : { kind: "choose", prompt: c.request.prompt, choices: c.request.choices },
        ),
      );
      for (const c of sent) kinds.add(c.kind);
      // Nothing was asked of the model to rebuild them.
      expect(model.calls.length).toBe(before + sent.length);
    }
    // The tutor's replies are exact texts: what it asks the model is which way to go.
    expect([...kinds]).toEqual(["choose"]);
  });

  it("gives the prompts and tool calls of a generation as the model received them, without calling a tool again", async () => {
    const graph = sampleGraph("native-tools");
    const tools = await sampleTools("native-tools", graph);
    let lookups = 0;
    const counted = {
      ...tools,
      // Slow, so that the duration the turn recorded is told from a replay's (which waits for nothing).
      lookup: defineTool({
        ...lookup.definition,
        run: async (args: Args) => (lookups++, await new Promise((r) => setTimeout(r, 30)), lookup(args)),
      }),
    };
    const model = new ScriptedModel({
      tools: [
        {
          text: "Let me look.",
          toolCalls: [{ id: "m", name: "lookup", arguments: { planet: "Mars", fact: "moons" } }],
        },
        "Mars has 2 moons.",
      ],
    });
    const url = await serve(new Agent(graph, { model, tools: counted }));
    await say(url, "planets", null);
    await say(url, "planets", "How many moons has Mars?");
    expect(lookups).toBe(1);
    const { body } = await calls(url, "planets", 2);
    expect(body.stopped).toBeNull();
    expect(lookups).toBe(1);
    const generate = body.events.find((e) => e.kind === "generate")!;
    expect(generate.kind === "generate" && generate.messages).toEqual(model.calls[0]!.request.messages);
    expect(generate.kind === "generate" && generate.toolAnswers).toMatchObject([
      { text: "Let me look.", toolCalls: [{ name: "lookup" }] },
    ]);
    expect(body.events.filter((e) => e.kind === "tool_call")).toMatchObject([{ tool: "lookup", result: 2 }]);
    // Each event with the duration the turn recorded.
    expect(body.events.find((e) => e.kind === "tool_call")!.ms).toBeGreaterThanOrEqual(25);
  });

  it("refuses a turn the thread does not have, and a thread of no one", async () => {
    const url = servers[0]!.url;
    for (const seq of [0, 9, "x"]) expect([seq, (await calls(url, "tutor", seq)).status]).toEqual([seq, 400]);
    expect((await calls(url, "nope", 1)).status).toBe(404);
  });

  it("runs no hook and no tool again, however often it is asked: the calls from code and the hooks' are recorded", async () => {
    const model = new ScriptedModel({ complete: ["Noted: apple.", "Noted: nothing."] });
    const url = await serve(new Agent(notesGraph(), { model, tools: { lookup: lookupWord }, actions: [note] }));
    noted.length = 0;
    looked.length = 0;
    await say(url, "notes", null);
    await say(url, "notes", "apple");
    await say(url, "notes", "42");
    expect(noted).toEqual(["words: apple", "words: 42"]);
    expect(looked).toEqual(["apple", "42"]);
    // Many GETs, some at once: each answered from the recording, nothing of the agent's run again.
    const answers = await Promise.all([2, 3, 2, 3, 2, 3].map((seq) => calls(url, "notes", seq)));
    for (const [i, { status, body }] of answers.entries()) {
      expect(status).toBe(200);
      expect(body.stopped).toBeNull();
      const found = body.events.find((e) => e.kind === "tool_call");
      expect(found).toMatchObject(
        i % 2 === 0
          ? { tool: "lookup", round: 0, arguments: '[{"word":"apple"}]', result: "apple (a word)" }
          : { tool: "lookup", round: 0, arguments: '[{"word":"42"}]', error: "not a word: 42" },
      );
      const hook = body.events.find((e) => e.kind === "custom");
      expect(hook).toMatchObject({
        hook: "instruction",
        reply: i % 2 === 0 ? "Noted: apple." : "Noted: nothing.",
        calls: [{ kind: "complete", answer: i % 2 === 0 ? "Noted: apple." : "Noted: nothing." }],
      });
      // The prompt the hook sent, rebuilt as the model received it.
      expect(hook?.kind === "custom" && hook.calls[0]?.kind === "complete" && hook.calls[0].messages).toEqual(
        model.calls[i % 2]!.request.messages,
      );
    }
    expect(noted).toHaveLength(2);
    expect(looked).toHaveLength(2);
    expect(model.calls).toHaveLength(2);
    // A turn stored before calls from code were recorded: the replay stops where it makes one (tryTool
    // would take the missing result as a failure and go on), still running nothing of the agent's.
    const turn = (await store.turns("notes")).find((t) => t.seq === 2)!;
    const older = { ...turn, trace: turn.trace.filter((e) => !(e.kind === "tool_call" && e.round === 0)) };
    const agent = new Agent(notesGraph(), { model, tools: { lookup: lookupWord }, actions: [note] });
    const stopped = await replayRecorded(agent, older, await store.memoryAt("notes", 1));
    expect(stopped.stopped).toMatch(/^the turn called tool 'lookup' where the recording has no result for it: /);
    expect(stopped.events.some((e) => e.kind === "custom")).toBe(false);
    expect([noted.length, looked.length]).toEqual([2, 2]);
  });

  it("replays a turn once however many ask for it, a few at a time, and refuses past its queue with Retry-After", async () => {
    const model = new ScriptedModel({ complete: Array.from({ length: 4 }, (_, i) => `Noted ${i}.`) });
    const agent = new Agent(notesGraph(), { model, tools: { lookup: lookupWord }, actions: [note] });
    const url = await serve(agent, { concurrent: 1, queue: 2 });
    await say(url, "bounded", null);
    for (const word of ["one", "two", "three", "four"]) await say(url, "bounded", word);
    // From here on, each replay is counted and held until the test lets it go.
    const played = agent.reply.bind(agent);
    let replays = 0;
    let release!: () => void;
    let gate = new Promise<void>((r) => (release = r));
    agent.reply = async (...args) => {
      replays++;
      await gate;
      return played(...args);
    };
    const same = Promise.all(Array.from({ length: 12 }, () => calls(url, "bounded", 3)));
    for (let waited = 0; replays === 0 && waited < 10_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    expect(replays).toBe(1);
    // Turn 3 replays; of turns 2, 4 and 5 two wait, and one finds the queue full: the first answer.
    const others = [2, 4, 5].map((seq) => fetch(`${url}/api/threads/bounded/turns/${seq}/calls`));
    const refused = await Promise.race(others);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("replays_busy");
    release();
    for (const { status, body } of await same) expect([status, body.stopped, body.user]).toEqual([200, null, "two"]);
    const answered = await Promise.all(others);
    expect(answered.map((r) => r.status).sort()).toEqual([200, 200, 503]);
    for (const r of answered.filter((r) => r.status === 200)) expect((await r.json()).stopped).toBeNull();
    expect(replays).toBe(3);
    // Asked again: read from what was kept, not replayed.
    gate = new Promise<void>((r) => (release = r));
    expect((await calls(url, "bounded", 3)).body.user).toBe("two");
    expect(replays).toBe(3);
    release();
  });
});
