// The threads API and what the server does with hostile input: every refusal a JSON error naming
// the field, nothing that crashes the server or reaches another thread; the bearer token; the
// busy policy; the OpenAPI document.
import { beforeAll, describe, expect, it } from "vitest";
import { gate } from "../store/support/agents.js";
import { chatBody, json, serverForFile, startTestServer, userMessage, type TestServer } from "./support/harness.js";

const file = serverForFile("autograms-server-threads-");
let t: TestServer;
beforeAll(() => {
  t = file.server();
});

const get = async (path: string, init?: RequestInit) => {
  const res = await fetch(`${t.url}${path}`, init);
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
};
const say = async (thread: string, text: string, id = `${thread}-${text}`) => {
  const res = await fetch(`${t.url}/api/threads/${thread}/runs`, json({ message: text, messageId: id }));
  expect(res.status).toBe(200);
  await res.text();
};

describe("the threads API", () => {
  it("sets a frame's variables as a turn without message, and refuses what memory cannot hold", async () => {
    await say("vars", "a");
    const set = await get("/api/threads/vars/variables", json({ frame: 0, set: { count: 10 } }));
    expect(set.status).toBe(200);
    expect(set.body.turn).toMatchObject({ seq: 3, user: null, reply: null });
    expect(set.body.thread).toMatchObject({ id: "vars", version: 3 });
    await say("vars", "b");
    expect((await get("/api/threads/vars/memory")).body.memory.stack[0].vars.count).toBe(11);
    const refused = await get("/api/threads/vars/variables", json({ frame: 0, set: { nope: 1 } }));
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: "bad_input",
      message: expect.stringMatching(/has no variable 'nope'/),
    });
    expect((await get("/api/threads/vars/variables", json({ frame: -1, set: {} }))).status).toBe(400);
    expect((await get("/api/threads/nobody/variables", json({ frame: 0, set: { count: 1 } }))).status).toBe(404);
    // Nothing was committed by the refusals.
    expect((await get("/api/threads/vars")).body.thread.version).toBe(4);
  });

  it("lists, shows, gives the memory at a turn, forks and deletes threads", async () => {
    await say("t1", "a");
    await say("t1", "b");
    await say("t2", "c");
    const list = await get("/api/threads");
    expect(list.status).toBe(200);
    expect(list.body.threads.map((x: { id: string }) => x.id).slice(0, 2)).toEqual(["t2", "t1"]);
    expect((await get("/api/threads?limit=1")).body.threads).toHaveLength(1);

    const shown = await get("/api/threads/t1");
    expect(shown.body.thread).toMatchObject({ id: "t1", agent: "Echo", version: 3, running: null });
    expect(shown.body.turns.map((x: { user: string | null; reply: string }) => [x.user, x.reply])).toEqual([
      [null, "Hello! Say something."],
      ["a", "echo: a"],
      ["b", "echo: b"],
    ]);
    const third = shown.body.turns[2];
    expect(third).toMatchObject({ seq: 3, messageId: "t1-b", status: "ok" });
    // What the turn changed (count_up's count), and the nodes it went through.
    expect(third.changes).toContainEqual({ node: "count_up", name: "count", before: 0, after: 1 });
    expect(third.trace).toEqual(["talk", "count_up", "talk"]);

    expect((await get("/api/threads/t1/memory?turn=2")).body.memory.stack[0].vars.count).toBe(0);
    expect((await get("/api/threads/t1/memory")).body).toMatchObject({ turn: 3, memory: { turn: 3 } });
    expect((await get("/api/threads/t1/memory?turn=0")).body).toEqual({ turn: 0, memory: null });
    // Past the end: the client's error, naming the field (not the store's).
    expect((await get("/api/threads/t1/memory?turn=99")).body.error).toEqual({
      code: "bad_request",
      message: "turn: thread t1 has turns 0 to 3",
      field: "turn",
    });
    expect((await get("/api/threads/t1/memory?turn=x")).body.error).toMatchObject({
      code: "bad_request",
      field: "turn",
    });

    const fork = await get("/api/threads/t1/fork", json({ turn: 2 }));
    expect(fork.status).toBe(201);
    // The store's messages name where it is, for the CLI's user; a client is told "the store".
    expect(t.store.where).toMatch(/^\//);
    const taken = await get("/api/threads/t1/fork", json({ turn: 2, id: fork.body.thread.id }));
    expect([taken.status, taken.body.error.message]).toEqual([
      400,
      `a thread '${fork.body.thread.id}' already exists in the store`,
    ]);
    expect(fork.body.thread).toMatchObject({ version: 2, forkedFrom: { id: "t1", turn: 2 } });
    await say(fork.body.thread.id, "other way");
    expect((await get(`/api/threads/${fork.body.thread.id}`)).body.turns.map((x: { user: string }) => x.user)).toEqual([
      null,
      "a",
      "other way",
    ]);
    expect((await get("/api/threads/t1/fork", json({ turn: 7 }))).body.error).toMatchObject({
      code: "bad_request",
      field: "turn",
    });
    expect((await get("/api/threads/t1/fork", json({ turn: "1" }))).body.error).toMatchObject({
      code: "bad_request",
      field: "turn",
    });
    expect((await get("/api/threads/t1/fork", json({ turn: 1.5 }))).body.error).toMatchObject({ field: "turn" });

    expect((await get("/api/threads/t2", { method: "DELETE" })).status).toBe(204);
    expect(await get("/api/threads/t2", { method: "DELETE" })).toMatchObject({
      status: 404,
      body: { error: { code: "unknown_thread" } },
    });
    expect(await get("/api/threads/t2")).toMatchObject({ status: 404, body: { error: { code: "unknown_thread" } } });
    expect((await t.store.thread("t1"))!.version).toBe(3);
  });

  it("names a thread: by its first user message, by the title given it, and back", async () => {
    await say("titled", "I want a refund\nfor order 12");
    const patch = (body: unknown) =>
      get("/api/threads/titled", {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await get("/api/threads/titled")).body.thread.title).toBe("I want a refund");
    expect(await patch({ title: "Refund, order 12" })).toMatchObject({
      status: 200,
      body: { thread: { id: "titled", title: "Refund, order 12" } },
    });
    expect((await get("/api/threads")).body.threads.find((x: { id: string }) => x.id === "titled").title).toBe(
      "Refund, order 12",
    );
    expect((await patch({ title: null })).body.thread.title).toBe("I want a refund");
    for (const bad of [{}, { title: 7 }, { title: "" }, { title: "a\nb" }, { title: "x".repeat(201) }]) {
      expect([bad, (await patch(bad)).status]).toEqual([bad, 400]);
    }
    expect(
      (
        await get("/api/threads/nope", {
          method: "PATCH",
          headers: { "content-type": "application/json" },
          body: '{"title":"x"}',
        })
      ).status,
    ).toBe(404);
  });

  it("describes itself at /openapi.json", async () => {
    const { status, body } = await get("/openapi.json");
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\.1/);
    for (const path of [
      "/api/chat",
      "/api/chat/{id}/stream",
      "/api/chat/{id}/messages",
      "/api/chat/{id}/stop",
      "/api/threads",
      "/api/threads/{id}",
      "/api/threads/{id}/fork",
      "/api/threads/{id}/memory",
      "/api/threads/{id}/runs",
      "/api/threads/{id}/runs/latest/stream",
      "/api/agent",
    ]) {
      expect(Object.keys(body.paths)).toContain(path);
    }
    expect((await get("/api/agent")).body).toMatchObject({
      name: "Echo",
      graph: { format: "autograms-graph", agent: "Echo" },
    });
  });
});

describe("hostile input", () => {
  it("refuses bad JSON, wrong types, huge bodies, unknown threads and paths with a JSON error, and keeps serving", async () => {
    const raw = (body: string, type = "application/json") =>
      fetch(`${t.url}/api/chat`, { method: "POST", headers: { "content-type": type }, body });
    let res = await raw("{ not json");
    expect([res.status, (await res.json()).error.code]).toEqual([400, "bad_json"]);
    res = await raw("x=1", "application/x-www-form-urlencoded");
    expect(res.status).toBe(415);
    res = await raw(JSON.stringify(chatBody("big", [userMessage("m", "x".repeat(2 * 1024 * 1024))])));
    expect([res.status, (await res.json()).error.code]).toEqual([413, "too_large"]);
    // Sent without a length (chunked): counted as it is read, refused past the bound, read whole under it.
    const chunked = (text: string, parts: number) =>
      fetch(`${t.url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        duplex: "half",
        body: new ReadableStream({
          start(controller) {
            const size = Math.ceil(text.length / parts);
            for (let i = 0; i < text.length; i += size)
              controller.enqueue(new TextEncoder().encode(text.slice(i, i + size)));
            controller.close();
          },
        }),
      } as RequestInit);
    res = await chunked(JSON.stringify(chatBody("big", [userMessage("m", "x".repeat(2 * 1024 * 1024))])), 64);
    expect([res.status, (await res.json()).error.code]).toEqual([413, "too_large"]);
    res = await chunked(JSON.stringify(chatBody("streamed", [userMessage("s1", "hello in pieces")])), 5);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("echo: hello in pieces");
    res = await raw(JSON.stringify(chatBody("long", [userMessage("m", "x".repeat(200_000))])));
    expect([res.status, (await res.json()).error.field]).toEqual([400, "messages[0].parts"]);
    // The limit counts characters (code points), as documented: an emoji is one, not two UTF-16 units.
    res = await raw(JSON.stringify(chatBody("emoji", [userMessage("e1", "\u{1F600}".repeat(60_000))])));
    expect(res.status).toBe(200);
    await res.text();
    res = await raw(JSON.stringify(chatBody("emoji", [userMessage("e2", "\u{1F600}".repeat(100_001))])));
    expect([res.status, (await res.json()).error.message]).toEqual([
      400,
      "messages[0].parts: longer than 100000 characters",
    ]);
    expect((await get("/api/threads/ghost")).status).toBe(404);
    expect((await get("/api/threads/ghost/memory")).status).toBe(404);
    expect((await get("/api/threads/ghost/fork", json({ turn: 0 }))).status).toBe(404);
    // Path tricks: an encoded slash, a NUL, an overlong id; dot segments (the client resolves them).
    for (const path of [
      "/api/threads/a%2Fb",
      "/api/threads/a%00b",
      "/api/threads/a%20b",
      `/api/threads/${"x".repeat(200)}`,
    ]) {
      const r = await get(path);
      expect([path, r.status, r.body.error.code]).toEqual([path, 400, "bad_thread_id"]);
    }
    expect(await get("/api/threads/../../etc/passwd")).toMatchObject({
      status: 404,
      body: { error: { code: "not_found" } },
    });
    expect(await get("/api/threads/%2E%2E/memory")).toMatchObject({
      status: 404,
      body: { error: { code: "not_found" } },
    });
    expect(await get("/nowhere")).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    expect((await get("/api/threads/x/runs", json({ message: 5 }))).body.error).toMatchObject({
      code: "bad_request",
      field: "message",
    });
    expect((await get("/api/threads/x/runs", json({}))).body.error).toMatchObject({ field: "message" });
    expect((await get("/api/threads/x/runs", json({ message: "hi", messageId: 3 }))).body.error).toMatchObject({
      field: "messageId",
    });
    expect(
      (await get("/api/threads/x/runs/latest/stream", { headers: { "last-event-id": "abc" } })).body.error,
    ).toMatchObject({ field: "Last-Event-ID" });
    await say("still", "alive");
  });

  it("keeps a message to its own thread: a message id of another thread makes a new turn here, and leaves the other alone", async () => {
    await say("mine", "hello", "shared-id");
    const before = (await get("/api/threads/mine")).body.turns;
    await say("theirs", "other words", "shared-id");
    expect((await get("/api/threads/theirs")).body.turns.map((x: { user: string }) => x.user)).toEqual([
      null,
      "other words",
    ]);
    expect((await get("/api/threads/mine")).body.turns).toEqual(before);
  });

  it("neither shows nor touches the threads of another agent in the same store", async () => {
    const { runTurn } = await import("@autograms/store");
    const { Agent } = await import("@autograms/runtime");
    const { EchoModel, echoGraph } = await import("../store/support/agents.js");
    await runTurn(
      t.store,
      new Agent({ ...echoGraph(), agent: "Stranger" }, { model: new EchoModel() }),
      "strangers",
      null,
    );
    expect((await get("/api/threads?limit=1000")).body.threads.map((x: { id: string }) => x.id)).not.toContain(
      "strangers",
    );
    for (const [path, init] of [
      ["/api/threads/strangers", undefined],
      ["/api/threads/strangers/memory", undefined],
      ["/api/threads/strangers", { method: "DELETE" }],
      ["/api/threads/strangers/fork", json({ turn: 0 })],
      [
        "/api/threads/strangers",
        { method: "PATCH", headers: { "content-type": "application/json" }, body: '{"title":"mine"}' },
      ],
      ["/api/threads/strangers/runs", json({ message: "hi" })],
    ] as const) {
      expect([path, (await get(path, init)).status]).toEqual([path, 404]);
    }
    // To a chat page, it is a chat that has sent nothing yet.
    expect((await get("/api/chat/strangers/stream")).status).toBe(204);
    expect((await get("/api/chat/strangers/messages")).body).toEqual([]);
    expect((await get("/api/chat/strangers/stop", { method: "POST" })).status).toBe(204);
    expect((await fetch(`${t.url}/api/chat`, json(chatBody("strangers", [userMessage("m", "hi")])))).status).toBe(404);
    expect((await t.store.thread("strangers"))!.version).toBe(1);
  });

  it("answers 409 with the run in progress when a thread is busy (policy reject)", async () => {
    const rejecting = await startTestServer(file.folder(), { policy: "reject", model: t.model });
    const g = gate();
    t.model.gate = g.promise;
    try {
      const t = rejecting;
      const started = t.model.nextStart();
      const first = await fetch(`${t.url}/api/chat`, json(chatBody("busy", [userMessage("m1", "slow")])));
      await started;
      const res = await fetch(`${t.url}/api/chat`, json(chatBody("busy", [userMessage("m2", "impatient")])));
      expect(res.status).toBe(409);
      const { error } = await res.json();
      expect(error).toMatchObject({ code: "thread_busy", running: { messageId: "m1", runId: expect.any(String) } });
      expect(error.message).toMatch(/thread busy is busy/);
      // The same message sent again while it runs follows its run instead.
      const retry = fetch(`${t.url}/api/chat`, json(chatBody("busy", [userMessage("m1", "slow")])));
      g.open();
      expect(await (await retry).text()).toContain("echo: slow");
      expect(await first.text()).toContain("echo: slow");
    } finally {
      t.model.gate = null;
      g.open();
      await rejecting.close();
    }
  });
});

describe("a server with a token", () => {
  it("answers only requests that carry it as a bearer token", async () => {
    const guarded = await startTestServer(file.folder(), { token: "s3cret-token" });
    try {
      const at = (headers: Record<string, string>) => fetch(`${guarded.url}/api/threads`, { headers });
      let res = await at({});
      expect([res.status, res.headers.get("www-authenticate"), (await res.json()).error.code]).toEqual([
        401,
        'Bearer realm="autograms"',
        "unauthorized",
      ]);
      for (const authorization of ["Bearer wrong", "Basic s3cret-token", "Bearer s3cret-token!"]) {
        res = await at({ authorization });
        expect([res.status, res.headers.get("www-authenticate"), (await res.json()).error.code]).toEqual([
          401,
          'Bearer realm="autograms"',
          "unauthorized",
        ]);
      }
      expect((await fetch(`${guarded.url}/api/chat`, json(chatBody("x", [userMessage("m", "hi")])))).status).toBe(401);
      res = await at({ authorization: "Bearer s3cret-token" });
      expect(res.status).toBe(200);
      expect(await guarded.store.thread("x")).toBeNull();
    } finally {
      await guarded.close();
    }
  });
});
