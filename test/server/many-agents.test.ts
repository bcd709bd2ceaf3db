// Many agents on one server: each under /agents/NAME/ with the routes the default agent has at /,
// its threads apart (a thread of one is refused under another's routes, by name), the list of the
// agents, an agent not served refused by name, and two agents of one name refused at the start.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "@autograms/server";
import { EchoModel, echoAgent, echoGraph } from "../store/support/agents.js";
import { json, startTestServer, tempFolder, type TestServer } from "./support/harness.js";

const parrot = echoAgent(new EchoModel(), { ...echoGraph(), agent: "Parrot" });
let folder: ReturnType<typeof tempFolder>;
let t: TestServer;
beforeAll(async () => {
  folder = tempFolder("autograms-many-agents-");
  t = await startTestServer(folder.path, { agents: [{ agent: parrot }] });
});
afterAll(async () => {
  await t?.close();
  folder?.remove();
});

const call = async (path: string, init?: RequestInit) => {
  const res = await fetch(`${t.url}${path}`, init);
  return { status: res.status, body: await res.json() };
};
const say = async (prefix: string, thread: string, message: string | null) => {
  const res = await fetch(`${t.url}${prefix}/api/threads/${thread}/runs`, json({ message }));
  expect(res.status).toBe(200);
  await res.text();
};

describe("a server of two agents", () => {
  it("lists them, the default first, each with where its routes are and its build", async () => {
    const { status, body } = await call("/api/agents");
    expect(status).toBe(200);
    expect(body.agents).toEqual([
      { name: "Echo", default: true, path: "/agents/Echo/", build: expect.objectContaining({ ok: true }) },
      { name: "Parrot", default: false, path: "/agents/Parrot/", build: expect.objectContaining({ ok: true }) },
    ]);
    expect((await call("/agents/Parrot/api/agent")).body.name).toBe("Parrot");
    expect((await call("/agents/Echo/api/agent")).body.name).toBe("Echo");
    expect((await call("/api/agent")).body.name).toBe("Echo");
  });

  it("keeps each agent's threads apart and refuses one under the other's routes, naming its agent", async () => {
    await say("/agents/Parrot", "p1", null);
    await say("/agents/Parrot", "p1", "hi");
    await say("", "e1", null);
    const parrots = (await call("/agents/Parrot/api/threads")).body.threads;
    expect(parrots.map((x: { id: string; agent: string }) => [x.id, x.agent])).toEqual([["p1", "Parrot"]]);
    expect((await call("/api/threads")).body.threads.map((x: { id: string }) => x.id)).toEqual(["e1"]);
    expect((await call("/agents/Echo/api/threads")).body.threads.map((x: { id: string }) => x.id)).toEqual(["e1"]);
    const shown = await call("/agents/Parrot/api/threads/p1");
    expect(shown.body.turns.map((x: { reply: string }) => x.reply)).toEqual(["Hello! Say something.", "echo: hi"]);

    const wrong = {
      code: "wrong_agent",
      message: expect.stringMatching(/thread 'p1' belongs to agent 'Parrot', not 'Echo'/),
    };
    const read = await call("/api/threads/p1");
    expect([read.status, read.body.error]).toEqual([409, wrong]);
    const sent = await call("/api/threads/p1/runs", json({ message: "hi" }));
    expect([sent.status, sent.body.error]).toEqual([409, wrong]);
    const chat = await call(
      "/api/chat",
      json({ id: "p1", messages: [{ id: "m", role: "user", parts: [{ type: "text", text: "x" }] }] }),
    );
    expect([chat.status, chat.body.error]).toEqual([409, wrong]);
    // Nothing of the refusals was committed.
    expect((await t.store.thread("p1"))!.version).toBe(2);
  });

  it("refuses an agent it does not serve, naming those it does", async () => {
    const { status, body } = await call("/agents/Nobody/api/threads");
    expect(status).toBe(404);
    expect(body.error).toEqual({
      code: "unknown_agent",
      message: "no agent 'Nobody' is served here ('Echo', 'Parrot' are)",
    });
  });

  it("refuses two agents of one name before anything starts", () => {
    expect(() => createApp({ agent: echoAgent(), agents: [{ agent: echoAgent() }], store: t.store })).toThrow(
      "two agents are named 'Echo': each agent served needs a name of its own",
    );
    expect(() => createApp({ agent: echoAgent(), agents: [{}] as never, store: t.store })).toThrow(
      /createApp: agents\.0\.agent must be an Agent/,
    );
  });
});
