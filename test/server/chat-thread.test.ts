// What a chat page needs of its thread beyond sending messages, through the AI SDK's own transport
// and parser (ai 6) against a real server on SQLite: the agent's opening before the user types,
// the history as UIMessage[] with the stream's ids, stop (the model's request aborted, the message
// kept without a reply everywhere alike), regenerate (the last reply replaced), and a message sent
// while a reply streams answered next (enqueue).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DefaultChatTransport, validateUIMessages, type UIMessage } from "ai";
import { Agent } from "@autograms/runtime";
import { echoGraph } from "../store/support/agents.js";
import { StreamingEcho } from "./support/streaming-echo.js";
import {
  chatBody,
  drain,
  json,
  readUntil,
  settled,
  sseFrames,
  startTestServer,
  tempFolder,
  textOf,
  uiChunks,
  uiMessageOf,
  userMessage,
  type TestServer,
} from "./support/harness.js";

const folder = tempFolder("autograms-chat-thread-");
const model = new StreamingEcho();
let t: TestServer;
beforeAll(async () => {
  // Leases of 3 s, not the default 10 s: a server finds a lease taken from it at its next renewal,
  // every third of a lease's life (see "on another server of the same store" below), and the file
  // would otherwise wait for it.
  t = await startTestServer(folder.path, {
    agent: new Agent(echoGraph(), { model }),
    storeOptions: { leaseMs: 3_000 },
  });
});
afterAll(async () => {
  await t?.close();
  folder.remove();
});

const transport = () => new DefaultChatTransport<UIMessage>({ api: `${t.url}/api/chat` });
const send = async (
  chatId: string,
  messages: UIMessage[],
  trigger: "submit-message" | "regenerate-message" = "submit-message",
  messageId?: string,
) =>
  uiMessageOf(
    await drain(await transport().sendMessages({ chatId, messages, trigger, messageId, abortSignal: undefined })),
  );
const user = (id: string, text: string): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });
const messagesOf = async (thread: string) =>
  (await fetch(`${t.url}/api/chat/${thread}/messages`)).json() as Promise<UIMessage[]>;
const turnsOf = async (thread: string) =>
  (
    (await (await fetch(`${t.url}/api/threads/${thread}`)).json()).turns as {
      seq: number;
      messageId: string | null;
      user: string | null;
      reply: string | null;
      status: string;
    }[]
  ).map((x) => [x.seq, x.messageId, x.user, x.reply, x.status]);
const stop = (thread: string) => fetch(`${t.url}/api/chat/${thread}/stop`, { method: "POST" });

describe("the agent's opening", () => {
  it("streams alone for a chat that has no user message, once however often it is asked", async () => {
    const opening = await send("o1", []);
    expect([opening.id, opening.role, textOf(opening)]).toEqual(["reply-1", "assistant", ["Hello! Say something."]]);
    // A page that asks again (loaded twice, React's double effects) gets the same opening, not a second.
    const [again, twice] = await Promise.all([send("o1", []), send("o1", [])]);
    expect([textOf(again), textOf(twice), again.id]).toEqual([
      ["Hello! Say something."],
      ["Hello! Say something."],
      "reply-1",
    ]);
    expect(await turnsOf("o1")).toEqual([[1, null, null, "Hello! Say something.", "ok"]]);
    // Two new chats asking at once: each one opening.
    await Promise.all([send("o2", []), send("o2", [])]);
    expect(await turnsOf("o2")).toHaveLength(1);
    // Once the conversation has gone on, asking for the opening is a mistake, said so.
    await send("o1", [user("u1", "hi")]);
    const res = await fetch(`${t.url}/api/chat`, json(chatBody("o1", [])));
    expect([res.status, (await res.json()).error.field]).toEqual([400, "messages"]);
  });
});

describe("GET /api/chat/:id/messages", () => {
  it("gives the thread as UIMessage[] with the ids and texts the stream gave, the message in flight included", async () => {
    const opening = await send("h1", []);
    const u1 = user("u1", "first");
    const reply = await send("h1", [opening, u1]);
    const restored = await messagesOf("h1");
    // What useChat held after those two streams, less the transient parts: the same ids, the same texts.
    const strip = (m: UIMessage) => ({ id: m.id, role: m.role, text: textOf(m) });
    expect(restored.map(strip)).toEqual([opening, u1, reply].map(strip));
    expect(await validateUIMessages({ messages: restored })).toEqual(restored);
    // While a reply is being written, its user message is there, the reply not yet (a resume stream brings it).
    const held = model.holdNext();
    const pending = fetch(`${t.url}/api/chat`, json(chatBody("h1", [userMessage("u2", "second")])));
    await held.started;
    expect((await messagesOf("h1")).slice(-2).map(strip)).toEqual([
      strip(reply),
      { id: "u2", role: "user", text: ["second"] },
    ]);
    held.open();
    await (await pending).text();
    expect((await messagesOf("h1")).slice(-2).map((m) => [m.id, textOf(m)])).toEqual([
      ["u2", ["second"]],
      ["reply-3", [`echo: second #${model.calls}`]],
    ]);
    // A chat that has sent nothing: no messages.
    expect(await messagesOf("never-used")).toEqual([]);
    expect((await fetch(`${t.url}/api/chat/bad*id/messages`)).status).toBe(400);
  });
});

describe("POST /api/chat/:id/stop", () => {
  it("aborts the model's request and keeps the message without a reply: in the thread, its messages and the next prompt alike", async () => {
    await send("s1", []);
    const held = model.holdNext();
    const res = await fetch(`${t.url}/api/chat`, json(chatBody("s1", [userMessage("m1", "never mind")])));
    await held.started;
    // The user sees the reply begin, then stops it (useChat's stop() closes the request, then the page asks the server).
    const seen = await readUntil(res, (f) => f.data.includes('"text-delta"'));
    const stopped = await stop("s1");
    expect(stopped.status).toBe(200);
    expect(await stopped.json()).toMatchObject({
      runId: expect.any(String),
      turn: { seq: 2, messageId: "m1", user: "never mind", reply: null, status: "interrupted" },
    });
    expect(model.aborted).toBe(1);
    held.open();
    // The run's stream ends with the stop, as an error (a client still reading it is told).
    const whole = await fetch(`${t.url}/api/chat/s1/stream`, { headers: { "last-event-id": "0" } });
    const chunks = await uiChunks(whole.body!);
    expect(chunks.slice(0, seen.length).map((c) => c.type)).toEqual(seen.map((f) => JSON.parse(f.data).type));
    expect(chunks.at(-2)).toMatchObject({
      type: "error",
      errorText: expect.stringMatching(/^stopped: .*stopped by its client/),
    });
    expect(await turnsOf("s1")).toEqual([
      [1, null, null, "Hello! Say something.", "ok"],
      [2, "m1", "never mind", null, "interrupted"],
    ]);
    expect((await messagesOf("s1")).map((m) => m.id)).toEqual(["reply-1"]);
    // The next message is answered at once, and its prompt holds nothing of the stopped one.
    const calls = model.calls;
    const next = await send("s1", [user("m2", "what now")]);
    expect(textOf(next)).toEqual([`echo: what now #${calls + 1}`]);
    expect(model.prompts.at(-1)).not.toMatch(/never mind/);
    // Its message id is spent: sent again, it is the turn the stop kept (no reply), nothing runs.
    const again = await uiChunks(
      (await fetch(`${t.url}/api/chat`, json(chatBody("s1", [userMessage("m1", "never mind")])))).body!,
    );
    expect(again.find((c) => c.type === "error")).toMatchObject({ errorText: expect.stringMatching(/^interrupted: /) });
    expect(model.calls).toBe(calls + 1);
    // Nothing running: 204, also for a chat that has sent nothing.
    expect((await stop("s1")).status).toBe(204);
    expect((await stop("no-such-chat")).status).toBe(204);
  });

  it("stops a run that waits for the model on another server of the same store", async () => {
    const other = await startTestServer(folder.path, { store: t.store, agent: new Agent(echoGraph(), { model }) });
    try {
      await send("s2", []);
      const held = model.holdNext();
      const res = fetch(`${other.url}/api/chat`, json(chatBody("s2", [userMessage("m1", "elsewhere")])));
      await held.started;
      const aborted = model.aborted;
      expect((await stop("s2")).status).toBe(200);
      // The thread is free at once: the next message, on this server, is answered while the other run still waits.
      model.hold = null;
      const next = await send("s2", [user("m2", "here")]);
      expect(textOf(next)[0]).toMatch(/^echo: here #/);
      // The other server finds its lease taken at its next renewal, and aborts its model's request.
      const frames = await sseFrames(await res);
      expect(model.aborted).toBe(aborted + 1);
      held.open();
      expect(JSON.parse(frames.at(-3)!.data)).toMatchObject({
        type: "error",
        errorText: expect.stringMatching(/^lease_lost: /),
      });
      expect(frames.some((f) => f.data.includes("echo: elsewhere"))).toBe(false);
      expect((await turnsOf("s2")).map((x) => x.slice(2))).toEqual([
        [null, "Hello! Say something.", "ok"],
        ["elsewhere", null, "interrupted"],
        ["here", textOf(next)[0], "ok"],
      ]);
    } finally {
      await other.close();
    }
  });
});

describe("regenerate", () => {
  it("runs the last message again from the memory before it and replaces its reply", async () => {
    const opening = await send("r1", []);
    const u1 = user("u1", "tell me");
    const first = await send("r1", [opening, u1]);
    // As useChat's regenerate() sends it: the messages up to the user's, the reply's id.
    const second = await send("r1", [opening, u1], "regenerate-message", first.id);
    expect(textOf(second)[0]).not.toBe(textOf(first)[0]);
    expect(textOf(second)[0]).toMatch(/^echo: tell me #/);
    expect(await turnsOf("r1")).toEqual([
      [1, null, null, "Hello! Say something.", "ok"],
      [2, null, "tell me", textOf(first)[0], "replaced"],
      [3, "u1", "tell me", textOf(second)[0], "ok"],
    ]);
    expect((await messagesOf("r1")).map((m) => [m.id, textOf(m)])).toEqual([
      ["reply-1", ["Hello! Say something."]],
      ["u1", ["tell me"]],
      [second.id, textOf(second)],
    ]);
    // The memory is as if the first reply never was: the agent counted one message, not two.
    const { memory } = await (await fetch(`${t.url}/api/threads/r1/memory`)).json();
    expect(memory.stack[0].vars.count).toBe(0);
    const next = await send("r1", [user("u2", "and then")]);
    expect(model.prompts.at(-1)).not.toContain(textOf(first)[0]);
    expect(model.prompts.at(-1)).toContain(textOf(second)[0]);
    // The message id now names the new turn; only the last reply can be generated again.
    expect(textOf(await send("r1", [u1]))).toEqual(textOf(second));
    const old = await fetch(
      `${t.url}/api/chat`,
      json({ ...chatBody("r1", [u1]), trigger: "regenerate-message", messageId: second.id }),
    );
    expect([old.status, (await old.json()).error.field]).toEqual([400, "messageId"]);
    // After a stop: the stopped message is answered again.
    const held = model.holdNext();
    const res = await fetch(`${t.url}/api/chat`, json(chatBody("r1", [userMessage("u3", "cut short")])));
    await held.started;
    await stop("r1");
    held.open();
    await res.text();
    const retried = await send("r1", [user("u3", "cut short")], "regenerate-message");
    expect(textOf(retried)[0]).toMatch(/^echo: cut short #/);
    expect((await messagesOf("r1")).slice(-4).map((m) => textOf(m)[0])).toEqual([
      "and then",
      textOf(next)[0],
      "cut short",
      textOf(retried)[0],
    ]);
  });
});

describe("a message sent while a reply streams", () => {
  it("waits for it and is answered next (POST /api/chat enqueues by default)", async () => {
    await send("q1", []);
    const held = model.holdNext();
    const first = fetch(`${t.url}/api/chat`, json(chatBody("q1", [userMessage("m1", "one")])));
    await held.started;
    const second = fetch(`${t.url}/api/chat`, json(chatBody("q1", [userMessage("m2", "two")])));
    await new Promise((r) => setTimeout(r, 100));
    held.open();
    const [a, b] = await Promise.all([first.then((r) => r.text()), second.then((r) => r.text())]);
    expect([a, b].map((x) => /echo: (\w+)/.exec(x)?.[1])).toEqual(["one", "two"]);
    await settled(t, "q1", 3);
    expect((await turnsOf("q1")).map((x) => x[2])).toEqual([null, "one", "two"]);
  });
});
