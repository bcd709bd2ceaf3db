// A message id names one message, and one turn: sent many times at once (to one process or two,
// whatever the busy policy) it makes one run, which every request follows; sent again with
// another text it is refused (409 message_conflict, naming the id); a NUL character in a message
// or its id is refused naming the field.
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "@autograms/store";
import { EchoModel, echoAgent, echoGraph } from "../store/support/agents.js";
import { hold, json, sseFrames, startTestServer, tempFolder, type TestServer } from "./support/harness.js";

const folder = tempFolder("autograms-message-ids-");
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  folder.remove();
});

const send = (s: TestServer, thread: string, message: string, messageId: string) =>
  fetch(`${s.url}/api/threads/${thread}/runs`, json({ message, messageId }));

/** The run a response streamed (its id, how it ended), or the error it answered. */
async function outcome(res: Response): Promise<{ status: number; runId?: string; end?: unknown; error?: unknown }> {
  if (res.status !== 200) return { status: res.status, error: (await res.json()).error };
  const events = (await sseFrames(res)).map((f) => JSON.parse(f.data).event);
  return { status: 200, runId: events[0].runId, end: events.at(-1) };
}

describe("one message id, one turn", () => {
  for (const policy of ["interrupt", "rollback", "reject", "enqueue"] as const) {
    it(`--busy ${policy}: the same id sent 10 times at once to two processes makes one run, and every request is answered with it`, async () => {
      const store = await openStore(`sqlite:${folder.path}/${policy}.db`);
      const a = await startTestServer(folder.path, { store, policy });
      const b = await startTestServer(folder.path, { store, policy, model: a.model });
      servers.push(a, b);
      await (await send(a, "t", "first", "m1")).text();
      const held = hold(a.model);
      const first = send(a, "t", "again and again", "m2");
      await held.started;
      const rest = Array.from({ length: 9 }, (_, i) => send(i % 2 ? a : b, "t", "again and again", "m2"));
      await new Promise((r) => setTimeout(r, 300));
      held.open();
      const all = await Promise.all([first, ...rest].map(async (r) => outcome(await r)));
      expect(all.map((o) => o.status)).toEqual(Array(10).fill(200));
      // One run (its events replayed to those that came after it ended), one turn, not interrupted.
      const runs = new Set(all.map((o) => o.runId).filter((id) => !id!.startsWith("turn-")));
      expect(runs.size).toBe(1);
      for (const o of all) expect(o.end).toMatchObject({ type: "run-finish", turn: 3, reply: "echo: again and again" });
      expect((await store.turns("t")).map((t) => [t.messageId, t.status])).toEqual([
        [null, "ok"],
        ["m1", "ok"],
        ["m2", "ok"],
      ]);
    });
  }

  it("a new thread's first message sent again while the agent's opening plays follows that run (--busy reject)", async () => {
    // An opening the model writes, so that it can be held.
    const graph = echoGraph();
    graph.nodes[0] = { name: "greet", action: "chat", instruction: "Greet the user.", transitions: ["talk"] };
    const model = new EchoModel();
    const s = await startTestServer(folder.path, { agent: echoAgent(model, graph), model, policy: "reject" });
    servers.push(s);
    const held = hold(s.model);
    const first = send(s, "fresh", "hello there", "hi-1");
    await held.started;
    // The thread is held for this message from the start: the same message follows its run.
    const again = send(s, "fresh", "hello there", "hi-1");
    await new Promise((r) => setTimeout(r, 100));
    held.open();
    const [a, b] = [await outcome(await first), await outcome(await again)];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.runId).toBe(a.runId);
    for (const o of [a, b]) expect(o.end).toMatchObject({ type: "run-finish", turn: 2, reply: "echo: hello there" });
    expect((await s.store.turns("fresh")).map((t) => [t.messageId, t.user])).toEqual([
      [null, null],
      ["hi-1", "hello there"],
    ]);
  });

  it("refuses the same id with another text: while its run is in progress, and after its turn", async () => {
    const s = await startTestServer(folder.path);
    servers.push(s);
    const held = hold(s.model);
    const running = send(s, "c", "what I said", "said-1");
    await held.started;
    const during = await send(s, "c", "something else", "said-1");
    expect([during.status, await during.json()]).toEqual([
      409,
      {
        error: {
          code: "message_conflict",
          message: expect.stringContaining("message id 'said-1' was sent on thread c with another text"),
        },
      },
    ]);
    held.open();
    expect((await outcome(await running)).end).toMatchObject({ type: "run-finish" });
    const after = await send(s, "c", "something else", "said-1");
    expect([after.status, (await after.json()).error.code]).toEqual([409, "message_conflict"]);
    // The same text again is the same message: its turn, replayed.
    expect((await outcome(await send(s, "c", "what I said", "said-1"))).end).toMatchObject({
      type: "run-finish",
      reply: "echo: what I said",
    });
    expect((await s.store.turns("c")).length).toBe(2);
  });

  it("refuses a NUL character in a message or its id, naming the field, on every protocol", async () => {
    const s = await startTestServer(folder.path);
    servers.push(s);
    const refused = async (path: string, body: unknown) => {
      const res = await fetch(`${s.url}${path}`, json(body));
      return [res.status, (await res.json()).error.field];
    };
    expect(await refused("/api/threads/n/runs", { message: "a\u0000b" })).toEqual([400, "message"]);
    expect(await refused("/api/threads/n/runs", { message: "ab", messageId: "x\u0000" })).toEqual([400, "messageId"]);
    expect(
      await refused("/api/chat", {
        id: "n",
        messages: [{ id: "m", role: "user", parts: [{ type: "text", text: "\u0000" }] }],
      }),
    ).toEqual([400, "messages[0].parts"]);
    expect(
      await refused("/api/chat", {
        id: "n",
        messages: [{ id: "m\u0000", role: "user", parts: [{ type: "text", text: "hi" }] }],
      }),
    ).toEqual([400, "messages[0].id"]);
    expect(
      await refused("/ag-ui", {
        threadId: "n",
        runId: "r",
        state: {},
        tools: [],
        context: [],
        forwardedProps: {},
        messages: [{ id: "m", role: "user", content: "a\u0000" }],
      }),
    ).toEqual([400, "messages[0].content"]);
    expect(await s.store.thread("n")).toBeNull();
  });
});
