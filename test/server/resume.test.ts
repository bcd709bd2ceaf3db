// Resumable streams: a client that goes away mid-run leaves the run going, and coming back with
// the number of the last frame it saw gets exactly the rest, from this server, from another
// server on the same store while the run executes there (Postgres LISTEN/NOTIFY), or after the
// process that ran it is gone (the store holds the events; a run cut short is told so).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type PostgresServer } from "../store/support/postgres-server.mjs";
import {
  chatBody,
  frameNumber,
  hold,
  json,
  readUntil,
  settled,
  sseFrames,
  startTestServer,
  tempFolder,
  userMessage,
  type TestServer,
} from "./support/harness.js";

const folder = tempFolder("autograms-server-resume-");
let t: TestServer;
let postgres: PostgresServer;
beforeAll(async () => {
  [t, postgres] = await Promise.all([startTestServer(folder.path), startPostgres()]);
});
afterAll(async () => {
  await t?.close();
  postgres?.stop();
  folder.remove();
});

describe("a client that disconnects", () => {
  it("leaves the run going; with Last-Event-ID it gets the rest of the UI stream, and nothing twice", async () => {
    await (await fetch(`${t.url}/api/threads/d1/runs`, json({ message: null }))).text();
    const held = hold(t.model);
    const res = await fetch(`${t.url}/api/chat`, json(chatBody("d1", [userMessage("m1", "go on")])));
    await held.started;
    const seen = await readUntil(res, (f) => f.data.includes('"data-step"'));
    const last = seen.at(-1)!.id;
    // While the run waits for the model, a client without a frame number is sent the run from its start.
    const replay = await fetch(`${t.url}/api/chat/d1/stream`);
    expect(replay.status).toBe(200);
    held.open();
    await settled(t, "d1", 2);
    const all = await sseFrames(replay);
    const runId = (await t.store.latestRun("d1"))!.id;
    expect(all.map((f) => f.id)).toEqual(all.map((_, i) => `${runId}:${i + 1}`));
    expect(all.at(-1)!.data).toBe("[DONE]");
    expect(all.slice(0, seen.length)).toEqual(seen);
    expect(all.some((f) => f.data.includes("echo: go on"))).toBe(true);
    // The rest, after the last frame seen.
    const rest = await fetch(`${t.url}/api/chat/d1/stream`, { headers: { "last-event-id": String(last) } });
    expect(rest.status).toBe(200);
    expect(rest.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    expect(await sseFrames(rest)).toEqual(all.filter((f) => frameNumber(f) > frameNumber(seen.at(-1)!)));
    // Nothing after the last frame, and no run in progress: 204.
    expect(
      (await fetch(`${t.url}/api/chat/d1/stream`, { headers: { "last-event-id": String(all.at(-1)!.id) } })).status,
    ).toBe(204);
    expect((await fetch(`${t.url}/api/chat/d1/stream`)).status).toBe(204);
    // A chat that has sent nothing has no thread yet: nothing to resume (useChat's resume as a new page mounts).
    expect((await fetch(`${t.url}/api/chat/nothing-here/stream`)).status).toBe(204);
  });

  it("resumes the run event stream the same way: ids are the events' numbers", async () => {
    const held = hold(t.model);
    const res = await fetch(`${t.url}/api/threads/d2/runs`, json({ message: "hi there", messageId: "m-d2" }));
    await held.started;
    const seen = await readUntil(res, (f) => f.event === "step");
    held.open();
    await settled(t, "d2", 2);
    const rest = await sseFrames(
      await fetch(`${t.url}/api/threads/d2/runs/latest/stream`, {
        headers: { "last-event-id": String(seen.at(-1)!.id) },
      }),
    );
    const all = [...seen, ...rest];
    expect(all.map(frameNumber)).toEqual(all.map((_, i) => i + 1));
    for (const f of all) expect(JSON.parse(f.data)).toMatchObject({ seq: frameNumber(f), event: { type: f.event } });
    const events = all.map((f) => JSON.parse(f.data).event);
    expect(events[0]).toMatchObject({
      type: "run-start",
      threadId: "d2",
      messageId: "m-d2",
      user: "hi there",
      turn: 2,
      opening: true,
    });
    expect(events.filter((e) => e.type === "text-delta").map((e) => e.delta)).toEqual([
      "Hello! Say something.",
      "echo: hi there",
    ]);
    expect(events.at(-1)).toEqual({ type: "run-finish", turn: 2, reply: "echo: hi there", done: false });
    // The store holds the same events.
    const run = (await t.store.latestRun("d2"))!;
    expect((await t.store.runEvents(run.id)).map((e) => e.event)).toEqual(events);
  });
});

describe("a run whose process is gone", () => {
  it("is told to a reconnecting client as run_lost once its lease lapses, and the thread is free", async () => {
    // This server's own leases live 2 s, so that the run sent again below keeps its lease on a busy
    // machine (with 200 ms it lapsed there: run-error); the dead process's lease lives 200 ms.
    const s = await startTestServer(folder.path, { storeOptions: { leaseMs: 2_000 } });
    try {
      // A process took the thread, recorded its run and its first events, and died.
      const lease = await s.store.acquire("dead", { ttlMs: 200, messageId: "m-dead", user: "hello?" });
      const run = await s.store.beginRun({ lease, user: "hello?" });
      await s.store.appendRunEvents(run.id, [
        {
          seq: 1,
          event: { type: "run-start", threadId: "dead", runId: run.id, messageId: "m-dead", user: "hello?", turn: 1 },
        },
        { seq: 2, event: { type: "text-delta", node: "talk", delta: "echo" } },
      ]);
      const frames = await sseFrames(
        await fetch(`${s.url}/api/threads/dead/runs/latest/stream`, { headers: { "last-event-id": `${run.id}:1` } }),
      );
      expect(frames.map((f) => [f.id, f.event])).toEqual([
        [`${run.id}:2`, "text-delta"],
        [`${run.id}:3`, "run-error"],
      ]);
      expect(JSON.parse(frames[1]!.data).event).toMatchObject({ code: "run_lost" });
      expect((await s.store.run(run.id))!.status).toBe("failed");
      // Its message was not answered: sent again, it runs.
      const again = await sseFrames(
        await fetch(`${s.url}/api/threads/dead/runs`, json({ message: "hello?", messageId: "m-dead" })),
      );
      expect(JSON.parse(again.at(-1)!.data).event).toMatchObject({ type: "run-finish", reply: "echo: hello?" });
    } finally {
      await s.close();
    }
  });
});

describe("two servers on one Postgres store", () => {
  it("streams to a client of one server the run that executes on the other, as it happens, and after", async () => {
    const url = await postgres.newDatabase();
    const [a, b] = await Promise.all([
      startTestServer(folder.path, { storeUrl: url }),
      startTestServer(folder.path, { storeUrl: url }),
    ]);
    try {
      await (await fetch(`${a.url}/api/threads/pg/runs`, json({ message: null }))).text();
      await settled(a, "pg", 1);
      const held = hold(a.model);
      const onA = fetch(`${a.url}/api/chat`, json(chatBody("pg", [userMessage("m1", "across")])));
      await held.started;
      // Connected to B while the run waits on A: B sends what A stored so far, then the rest as A goes on.
      const onB = await fetch(`${b.url}/api/chat/pg/stream`);
      expect(onB.status).toBe(200);
      const early = readUntil(onB, (f) => f.data === "[DONE]");
      await new Promise((r) => setTimeout(r, 100));
      held.open();
      const fromA = await sseFrames(await onA);
      const fromB = await early;
      expect(fromB).toEqual(fromA);
      expect(fromA.some((f) => f.data.includes("echo: across"))).toBe(true);
      // And after it ended, from B, with a frame number.
      const rest = await sseFrames(
        await fetch(`${b.url}/api/chat/pg/stream`, { headers: { "last-event-id": fromA[1]!.id } }),
      );
      expect(rest).toEqual(fromA.slice(2));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
