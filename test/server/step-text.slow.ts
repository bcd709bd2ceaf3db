// A step's JSON text is made once, where the turn is played (a worker thread, or the server's own
// thread), and passed through: the server's thread stores it and writes it into every stream's
// frames without reading it back. What is stored and streamed must be, byte for byte, what
// serializing the step's objects gave: the trace's step bounded for the stream, as a stored run
// event, as the run event stream's frame, as the UI message stream's frame (live, and resumed from
// the store), and the same AG-UI events as the same turn played in the server's own thread.
import { afterAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compile } from "@autograms/compiler";
import { Agent, OfflineModel, type Graph } from "@autograms/runtime";
import { TurnPool, UiMessageTranslator } from "@autograms/server";
import type { NumberedRunEvent, RunEvent } from "@autograms/server";
import type { Store } from "@autograms/store";
import { boundedStep } from "../../server/src/workers/bounded-step.js";
import { sseFrames, startTestServer, tempFolder, type TestServer } from "./support/harness.js";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/pool/${name}`, import.meta.url));
const { graph } = compile(readFileSync(fixture("texts.ts"), "utf8"), { fileName: fixture("texts.ts") });
const agent = () => new Agent(graph as Graph, { model: new OfflineModel(), tools: { whoami: () => 0 } });
const folder = tempFolder("autograms-step-text-");
const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  folder.remove();
});

const players = {
  "a worker thread": () => new TurnPool({ script: fixture("worker.mjs"), data: { graph }, size: 1 }),
  "the server's own thread": () => undefined,
};

async function serve(workers: TurnPool | undefined): Promise<TestServer> {
  const s = await startTestServer(folder.path, { agent: agent(), ...(workers && { workers }) });
  servers.push(s);
  return s;
}

const post = (s: TestServer, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${s.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/** The run's rows as the database holds them (a batch of events each). */
async function storedRows(store: Store, runId: string): Promise<string[]> {
  const db = (store as unknown as { db: { all(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> } })
    .db;
  const rows = await db.all("SELECT seq, event FROM run_events WHERE run_id = ? ORDER BY seq", [runId]);
  return rows.map((r) => String(r.event));
}

/** The UI stream's frames of the stored events (step-frames.test.ts holds them to each chunk's JSON). */
function uiFramesOf(events: NumberedRunEvent[]): string[] {
  const translator = new UiMessageTranslator();
  return events.flatMap((e) => translator.translate(e)).map((f) => f.data);
}

const agUiRun = (threadId: string, text: string) => ({
  threadId,
  runId: `${threadId}-run`,
  state: {},
  messages: [{ id: `${threadId}-m`, role: "user", content: text }],
  tools: [],
  context: [],
  forwardedProps: {},
});

describe("a step's text, made where its turn is played", () => {
  const agUi: Record<string, string> = {};

  for (const [where, player] of Object.entries(players)) {
    it(`in ${where}: is stored and streamed as serializing the step gave, byte for byte`, async () => {
      const s = await serve(player());
      await (await post(s, "/api/threads/t/runs", { message: null })).text();
      const frames = await sseFrames(await post(s, "/api/threads/t/runs", { message: "ok ☃ 😀" }));
      const runId = frames[0]!.id.split(":")[0]!;
      await s.server.ctx.runs.settled();
      const rows = await storedRows(s.store, runId);
      // A batch of events is a row, as JSON.stringify writes the batch: steps with unicode and
      // escapes as they are there, not escaped otherwise.
      expect(rows).toEqual(rows.map((r) => JSON.stringify(JSON.parse(r))));
      const events = rows.flatMap((r) => JSON.parse(r) as RunEvent[]);
      // The steps stored are the turn's trace, each bounded for the stream.
      const turn = (await s.store.turns("t")).at(-1)!;
      const steps = events.flatMap((e) => (e.type === "step" ? [e.event] : []));
      expect(steps).toEqual(turn.trace.map((e) => JSON.parse(JSON.stringify(boundedStep(e).event))));
      // Some of its values are over the stream's bound (a stand-in is sent), some just under it, in every plane.
      const stored = rows.join("");
      expect(stored).toContain('"$omitted"');
      expect(stored).toContain("é".repeat(2000));
      expect(stored).toContain("a\\ud800b\\udfff");
      const text = `é😀\u2028\u2029"\\\n\t\u0001 ☃ ok ☃ 😀`;
      expect(stored).toContain(JSON.stringify(text));
      // The run event stream sends each event as serializing the stored one gives.
      expect(frames.map((f) => f.data)).toEqual(events.map((event, i) => JSON.stringify({ seq: i + 1, event })));

      // The UI message stream: live, then resumed after its third frame from the store (the run has ended).
      // A new thread: the run plays the agent's opening, then the message.
      const chat = await post(s, "/api/chat", {
        id: "u",
        messages: [{ id: "u-1", role: "user", parts: [{ type: "text", text: "ok ü" }] }],
      });
      const live = await sseFrames(chat);
      const chatRun = live[0]!.id.split(":")[0]!;
      await s.server.ctx.runs.settled();
      const chatEvents = (await storedRows(s.store, chatRun))
        .flatMap((r) => JSON.parse(r) as RunEvent[])
        .map((event, i): NumberedRunEvent => ({ seq: i + 1, event }));
      const expected = uiFramesOf(chatEvents);
      expect(live.map((f) => f.data)).toEqual(expected);
      expect(live.filter((f) => f.data.startsWith('{"type":"data-step"'))).toHaveLength(
        chatEvents.filter((e) => e.event.type === "step").length,
      );
      const resumed = await sseFrames(
        await fetch(`${s.url}/api/chat/u/stream`, { headers: { "last-event-id": `${chatRun}:3` } }),
      );
      expect(resumed.map((f) => f.data)).toEqual(expected.slice(3));

      // AG-UI reads the steps whole (its state follows the variables they write).
      const res = await post(s, "/ag-ui", agUiRun("g", "ok ☃"), { accept: "text/event-stream" });
      agUi[where] = await res.text();
      expect(agUi[where]).toContain('"type":"STATE_DELTA"');
    });
  }

  it("gives AG-UI clients the same events from a worker thread as from the server's own thread", () => {
    const [fromWorker, inThread] = Object.values(agUi);
    expect(fromWorker).toBeDefined();
    expect(fromWorker).toBe(inThread);
  });
});
