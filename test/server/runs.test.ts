// What a run does under way, seen through both streams: the reply's text as the model writes it,
// a failure (nothing committed, the thread free again), a conversation that ends, the busy
// policies that wait or stop, and a server that stops with runs in progress.
import { afterAll, describe, expect, it } from "vitest";
import { Agent, type CompletionRequest } from "@autograms/runtime";
import { EchoModel, echoGraph, gate } from "../store/support/agents.js";
import {
  chatBody,
  json,
  sseFrames,
  startTestServer,
  tempFolder,
  textOf,
  uiChunks,
  uiMessageOf,
  userMessage,
} from "./support/harness.js";

const folder = tempFolder("autograms-server-runs-");
afterAll(() => folder.remove());

/** The echo model, writing its answer word by word when asked to stream. */
class StreamingEcho extends EchoModel {
  failing = false;

  override async complete(req: CompletionRequest): Promise<string> {
    if (this.failing) throw new Error("the model server fell over");
    const text = await super.complete(req);
    for (const piece of text.split(/(?= )/)) req.onText?.(piece);
    return text;
  }
}

const events = async (res: Response) => (await sseFrames(res)).map((f) => JSON.parse(f.data).event);

describe("a run", () => {
  it("streams the reply as the model writes it: deltas that add up to the reply, one text part", async () => {
    const s = await startTestServer(folder.path, { model: new StreamingEcho() });
    try {
      const got = await events(await fetch(`${s.url}/api/threads/w/runs`, json({ message: "one two three" })));
      const deltas = got.filter((e) => e.type === "text-delta" && e.node === "talk").map((e) => e.delta);
      expect(deltas).toEqual(["echo:", " one", " two", " three"]);
      expect(got.at(-1)).toMatchObject({ type: "run-finish", reply: "echo: one two three" });
      const chunks = await uiChunks(
        (await fetch(`${s.url}/api/chat`, json(chatBody("w", [userMessage("m2", "four five")])))).body!,
      );
      expect(chunks.filter((c) => c.type === "text-delta").map((c) => (c as { delta: string }).delta)).toEqual([
        "echo:",
        " four",
        " five",
      ]);
      expect(textOf(await uiMessageOf(chunks))).toEqual(["echo: four five"]);
    } finally {
      await s.close();
    }
  });

  it("that fails ends with run-error (UI stream: error, finish), commits nothing and frees the thread", async () => {
    const model = new StreamingEcho();
    // No retries: the failure is the run's at once.
    const s = await startTestServer(folder.path, {
      model,
      agent: new Agent(echoGraph(), { model, config: { modelRetries: 0 } }),
    });
    try {
      await (await fetch(`${s.url}/api/threads/f/runs`, json({ message: null }))).text();
      model.failing = true;
      const chunks = await uiChunks(
        (await fetch(`${s.url}/api/chat`, json(chatBody("f", [userMessage("m1", "hello")])))).body!,
      );
      const error = chunks.find((c) => c.type === "error") as { errorText: string };
      expect(error.errorText).toMatch(/the model server fell over/);
      expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "error" });
      expect(await s.store.thread("f")).toMatchObject({ version: 1, running: null });
      expect((await s.store.latestRun("f"))!.status).toBe("failed");
      // The same message again runs, now that the model answers.
      model.failing = false;
      const again = await uiChunks(
        (await fetch(`${s.url}/api/chat`, json(chatBody("f", [userMessage("m1", "hello")])))).body!,
      );
      expect(textOf(await uiMessageOf(again))).toEqual(["echo: hello"]);
    } finally {
      await s.close();
    }
  });

  it("that ends the conversation says so; the thread then refuses new messages with 409 thread_ended, and replays the one that ended it", async () => {
    const s = await startTestServer(folder.path, {
      agent: new Agent(echoGraph({ transitions: ["quit"] }), { model: new EchoModel() }),
    });
    try {
      const got = await events(await fetch(`${s.url}/api/threads/e/runs`, json({ message: "bye", messageId: "m1" })));
      expect(got.at(-1)).toMatchObject({ type: "run-finish", done: true });
      const turns = (await s.store.thread("e"))!.version;
      // The message that ended it, sent again (a client that lost the answer), gets its turn back.
      const again = await uiChunks(
        (await fetch(`${s.url}/api/chat`, json(chatBody("e", [userMessage("m1", "bye")])))).body!,
      );
      expect(textOf(await uiMessageOf(again))).toEqual(["echo: bye"]);
      expect(again.at(-1)).toMatchObject({ type: "finish", messageMetadata: { done: true } });
      expect(await s.store.thread("e")).toMatchObject({ version: turns, done: true });
      const res = await fetch(`${s.url}/api/chat`, json(chatBody("e", [userMessage("m9", "more")])));
      expect(res.status).toBe(409);
      expect((await res.json()).error.code).toBe("thread_ended");
    } finally {
      await s.close();
    }
  });
});

describe("busy policies", () => {
  it("enqueue: the second message waits for the first and is answered after it", async () => {
    const s = await startTestServer(folder.path, { policy: "enqueue", storeOptions: { pollMs: 10 } });
    try {
      await (await fetch(`${s.url}/api/threads/q/runs`, json({ message: null }))).text();
      const g = gate();
      s.model.gate = g.promise;
      const started = s.model.nextStart();
      const first = fetch(`${s.url}/api/threads/q/runs`, json({ message: "first" }));
      await started;
      s.model.gate = null;
      const second = fetch(`${s.url}/api/threads/q/runs`, json({ message: "second" }));
      await new Promise((r) => setTimeout(r, 100));
      g.open();
      const [a, b] = await Promise.all([first, second].map(async (r) => (await events(await r)).at(-1)));
      expect([a.reply, b.reply]).toEqual(["echo: first", "echo: second"]);
      expect((await s.store.turns("q")).map((x) => x.user)).toEqual([null, "first", "second"]);
    } finally {
      await s.close();
    }
  });

  it("interrupt: the run in progress is stopped (its stream ends with lease_lost) and the new message answered", async () => {
    const s = await startTestServer(folder.path, { policy: "interrupt", storeOptions: { leaseMs: 300 } });
    try {
      await (await fetch(`${s.url}/api/threads/i/runs`, json({ message: null }))).text();
      const g = gate();
      s.model.gate = g.promise;
      const started = s.model.nextStart();
      const old = fetch(`${s.url}/api/threads/i/runs`, json({ message: "old" }));
      await started;
      s.model.gate = null;
      const fresh = await events(await fetch(`${s.url}/api/threads/i/runs`, json({ message: "new" })));
      expect(fresh.at(-1)).toMatchObject({ type: "run-finish", reply: "echo: new" });
      expect((await events(await old)).at(-1)).toMatchObject({ type: "run-error", code: "lease_lost" });
      g.open();
      expect((await s.store.turns("i")).map((x) => [x.user, x.status])).toEqual([
        [null, "ok"],
        ["old", "interrupted"],
        ["new", "ok"],
      ]);
    } finally {
      await s.close();
    }
  });
});

describe("a server that stops", () => {
  it("ends its runs in progress with a stopped error, stored, and releases their threads at once", async () => {
    const s = await startTestServer(folder.path);
    await (await fetch(`${s.url}/api/threads/s/runs`, json({ message: null }))).text();
    const g = gate();
    s.model.gate = g.promise;
    const started = s.model.nextStart();
    const res = await fetch(`${s.url}/api/threads/s/runs`, json({ message: "cut short" }));
    await started;
    const body = res.text().catch(() => "");
    await s.server.close();
    g.open();
    await body;
    const run = (await s.store.latestRun("s"))!;
    expect(run.status).toBe("failed");
    expect((await s.store.runEvents(run.id)).at(-1)!.event).toMatchObject({ type: "run-error", code: "stopped" });
    expect(await s.store.thread("s")).toMatchObject({ version: 1, running: null });
    await s.store.close();
  });
});
