// Resuming an AG-UI stream: every AG-UI event has an SSE id (1, 2, 3, ... within the run), and
// `GET /ag-ui/:threadId/stream` with the last one received sends exactly the rest, from another
// server on the same store too: the frames a client got before the cut and the resumed ones
// together are the stream it would have had uninterrupted, at every place it may be cut. The rest
// comes after the run as it stood at the cut (numbered as the cut), so that it is on its own a
// stream an AG-UI client takes: RUN_STARTED first, the state, the step and message still open.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { HttpAgent, runHttpRequest, transformHttpEventStream, type RunAgentInput } from "@ag-ui/client";
import { EventType } from "@ag-ui/core";
import { EventSchemas } from "@ag-ui/core/schemas";
import { Agent, OfflineModel, type Graph } from "@autograms/runtime";
import { openStore, type Store } from "@autograms/store";
import { agentVariables, type AgUiEvent, type Variables } from "../../server/src/protocols/ag-ui.js";
import { applyPatch, checkOrder } from "./support/ag-ui-checks.js";
import {
  hold,
  json,
  readUntil,
  settled,
  sseFrames,
  startTestServer,
  tempFolder,
  type Frame,
  type TestServer,
} from "./support/harness.js";

const ROOT = join(import.meta.dirname, "..", "..");
const tutor = JSON.parse(readFileSync(join(ROOT, "samples/tutor/agent.graph.json"), "utf8")) as Graph;
const conversation = JSON.parse(readFileSync(join(ROOT, "samples/tutor/conversation.json"), "utf8")) as {
  turns: { user: string; agent: string | null }[];
};

const folder = tempFolder("autograms-ag-ui-resume-");
afterAll(() => folder.remove());

const input = (threadId: string, runId: string, messages: { id: string; text: string }[] = []) =>
  json({
    threadId,
    runId,
    messages: messages.map((m) => ({ id: m.id, role: "user", content: m.text })),
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
  });

/** `last`: the id of the last frame received, or its number in run `runId`. */
const resume = (url: string, threadId: string, last: string | number | null, runId?: string) =>
  fetch(`${url}/ag-ui/${threadId}/stream${runId === undefined ? "" : `?runId=${encodeURIComponent(runId)}`}`, {
    headers: last === null ? {} : { "last-event-id": typeof last === "number" ? `${runId}:${last}` : last },
  });

const eventsOf = (frames: Frame[]) => frames.map((f) => JSON.parse(f.data) as AgUiEvent);
/** The number N of a frame id RUN:N. */
const frameNumber = (id: string) => Number(id.slice(id.lastIndexOf(":") + 1));
/** The frames numbered after `cut` (a resumed stream's first events, the run as it stood at the cut, carry the cut's own id). */
const framesAfter = (frames: Frame[], cut: number | string) =>
  frames.filter((f) => frameNumber(f.id) > (typeof cut === "number" ? cut : frameNumber(cut)));

/** The state a client builds from the events: the snapshot, then each delta applied. */
function stateOf(events: AgUiEvent[]): unknown {
  let state: unknown = null;
  for (const e of events) {
    if (e.type === EventType.STATE_SNAPSHOT) state = structuredClone(e.snapshot);
    if (e.type === EventType.STATE_DELTA) state = applyPatch(state, e.delta);
  }
  return state;
}

describe("resuming an AG-UI stream", () => {
  let dir: string;
  let a: TestServer;
  let b: TestServer;
  let storeB: Store;
  beforeAll(async () => {
    dir = folder.path;
    const url = `sqlite:${join(dir, "tutor.db")}`;
    // Two servers of the tutor on one SQLite file: A runs the turns, B resumes them from the store.
    const agent = () => new Agent(tutor, { model: new OfflineModel() }) as never;
    a = await startTestServer(dir, { storeUrl: url, agent: agent() });
    storeB = await openStore(url);
    b = await startTestServer(dir, { store: storeB, agent: agent() });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await storeB?.close();
  });

  it("after a cut at every place, the frames received and the rest from another server are the whole stream", async () => {
    const turns = conversation.turns.slice(0, 4);
    for (const [i, turn] of turns.entries()) {
      const runId = `run-${i}`;
      const res = await fetch(
        `${a.url}/ag-ui`,
        input("tutor-1", runId, i === 0 ? [] : [{ id: `u${i}`, text: turn.user }]),
      );
      expect(res.status).toBe(200);
      const whole = await sseFrames(res);
      // One id per AG-UI event, 1, 2, 3, ..., naming the run: the client's run id is the run's.
      expect(whole.map((f) => f.id)).toEqual(whole.map((_, k) => `${runId}:${k + 1}`));
      const events = eventsOf(whole);
      for (const e of events) expect(EventSchemas.safeParse(e).error?.issues, JSON.stringify(e)).toBeUndefined();
      expect(events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, runId, result: { reply: turn.agent } });
      // A run event may give several AG-UI events (a step: STEP_STARTED and STATE_DELTA at least):
      // the AG-UI numbers run past the run's own.
      expect(whole.length).toBeGreaterThan((await a.store.runEvents((await a.store.latestRun("tutor-1"))!.id)).length);
      for (let cut = 1; cut < whole.length; cut++) {
        const rest = await resume(b.url, "tutor-1", cut, runId);
        expect(rest.status).toBe(200);
        expect(rest.headers.get("content-type")).toBe("text/event-stream");
        const frames = await sseFrames(rest);
        expect([...whole.slice(0, cut), ...framesAfter(frames, cut)], `cut after frame ${cut} of turn ${i}`).toEqual(
          whole,
        );
        // The rest alone: the run as it stood at the cut, then the rest, well formed, to the same state.
        expect(frames.filter((f) => frameNumber(f.id) <= cut).every((f) => frameNumber(f.id) === cut)).toBe(true);
        const alone = eventsOf(frames);
        expect(alone[0]).toEqual(events[0]);
        expect(checkOrder(alone), `cut after frame ${cut} of turn ${i}`).toEqual([]);
        expect(stateOf(alone)).toEqual(stateOf(events));
      }
      // Nothing after the last frame, or no run named and none in progress: an empty stream (AG-UI
      // clients read a 2xx answer as a stream: one without a body would fail).
      for (const [last, named] of [
        [whole.length, runId],
        [null, undefined],
      ] as const) {
        const none = await resume(b.url, "tutor-1", last, named);
        expect([none.status, await none.text()]).toEqual([200, ""]);
      }
      // The run named without a frame, or Last-Event-ID 0 (before any frame): all of it.
      expect(await sseFrames(await resume(b.url, "tutor-1", null, runId))).toEqual(whole);
      expect(await sseFrames(await resume(b.url, "tutor-1", "0"))).toEqual(whole);
      // The state a client builds is the agent's variables in the store after the turn.
      expect(checkOrder(events)).toEqual([]);
      const { memory } = await a.store.load("tutor-1");
      expect(stateOf(events)).toEqual(agentVariables(memory, tutor.globals as Variables));
    }
  });

  it("resumes the run the frame id names, never another: the latest run is not relabelled, a run lost before its first event is run_lost", async () => {
    const first = await sseFrames(await fetch(`${a.url}/ag-ui`, input("tutor-2", "client-run")));
    expect((await a.store.latestRun("tutor-2"))!.id).toBe("client-run");
    expect(eventsOf(first).find((e) => e.type === EventType.TEXT_MESSAGE_START)).toMatchObject({
      messageId: "client-run-m1",
    });
    const second = await sseFrames(
      await fetch(`${a.url}/ag-ui`, input("tutor-2", "later-run", [{ id: "u1", text: conversation.turns[1]!.user }])),
    );
    // The first run's rest, by its frame id or its runId, although a later run is the thread's latest.
    // (After the run as it stood at the cut, which a resumed AG-UI stream starts with.)
    expect(framesAfter(await sseFrames(await resume(b.url, "tutor-2", first[1]!.id)), 2)).toEqual(first.slice(2));
    expect(framesAfter(await sseFrames(await resume(b.url, "tutor-2", 2, "client-run")), 2)).toEqual(first.slice(2));
    expect(framesAfter(await sseFrames(await resume(b.url, "tutor-2", 2, "later-run")), 2)).toEqual(second.slice(2));
    // A run id no run has (its process stopped before storing anything): run_lost, not another run's frames.
    const lost = await resume(b.url, "tutor-2", 1, "never-stored");
    expect([lost.status, (await lost.json()).error.code]).toEqual([410, "run_lost"]);
    // A run id is the run's own: a POST may not reuse one.
    const reused = await fetch(`${a.url}/ag-ui`, input("tutor-2", "client-run", [{ id: "u2", text: "again" }]));
    expect([reused.status, (await reused.json()).error.field]).toEqual([400, "runId"]);
  });

  it("refuses a bad Last-Event-ID or runId, and has nothing for a thread it does not have", async () => {
    const bad = await resume(b.url, "tutor-1", "x" as never);
    expect([bad.status, await bad.json()]).toEqual([
      400,
      {
        error: {
          code: "bad_request",
          field: "Last-Event-ID",
          message: "Last-Event-ID: the id of the last AG-UI event received (RUN:N, as sent) is expected",
        },
      },
    ]);
    // A bare number named no run: it is refused, not taken as the latest run's.
    expect((await resume(b.url, "tutor-1", "3")).status).toBe(400);
    expect(
      await (await fetch(`${b.url}/ag-ui/tutor-1/stream?runId=`, { headers: { "last-event-id": "r:1" } })).json(),
    ).toMatchObject({ error: { field: "runId" } });
    expect((await resume(b.url, "no-such-thread", 1, "r")).status).toBe(404);
    expect(await (await resume(b.url, "x*y", 1, "r")).json()).toMatchObject({
      error: { code: "bad_thread_id", field: "threadId" },
    });
  });
});

/**
 * The AG-UI client as docs/serving.md shows it: an HttpAgent whose `connectAgent()` joins the
 * thread's run in progress (from its start, or after `lastEventId` events).
 */
class AutogramsAgent extends HttpAgent {
  lastEventId?: string;
  protected override connect(input: RunAgentInput) {
    const resume = this.lastEventId === undefined ? {} : { "last-event-id": this.lastEventId };
    return transformHttpEventStream(
      runHttpRequest(() => fetch(`${this.url}/${input.threadId}/stream`, { headers: { ...this.headers, ...resume } })),
    );
  }
}

describe("a client that loses an AG-UI stream while the run goes on", () => {
  let t: TestServer;
  let store: Store;
  /** Told the message id of each run that asks for its thread. */
  let acquiring: (messageId: string | null | undefined) => void = () => {};
  beforeAll(async () => {
    store = await openStore(`sqlite:${join(folder.path, "echo.db")}`, { pollMs: 10 });
    const take = store.takeThread.bind(store);
    store.takeThread = (threadId, options) => {
      acquiring(options?.messageId);
      return take(threadId, options);
    };
    t = await startTestServer(folder.path, { store, policy: "enqueue" });
  });
  afterAll(async () => {
    await t?.close();
    await store?.close();
  });

  it("gets the rest after the last event it received, live, and without it the run from RUN_STARTED", async () => {
    await (await fetch(`${t.url}/ag-ui`, input("live", "open"))).text();
    const held = hold(t.model);
    const res = await fetch(`${t.url}/ag-ui`, input("live", "second", [{ id: "m1", text: "go on" }]));
    await held.started;
    // The client sees the run start and its first steps, then its connection drops.
    const seen = await readUntil(res, (f) => f.data.includes(EventType.STEP_STARTED));
    expect(
      eventsOf(seen)
        .map((e) => e.type)
        .slice(0, 2),
    ).toEqual([EventType.RUN_STARTED, EventType.STATE_SNAPSHOT]);
    // A client that lost everything (a reloaded page) asks without a number: the run from its start, snapshot included.
    const fromStart = await resume(t.url, "live", null, "second");
    expect(fromStart.status).toBe(200);
    const rest = await resume(t.url, "live", seen.at(-1)!.id, "second");
    expect(rest.status).toBe(200);
    held.open();
    const whole = await sseFrames(fromStart);
    const resumed = await sseFrames(rest);
    const cut = seen.at(-1)!.id;
    expect(whole.slice(0, seen.length)).toEqual(seen);
    expect([...seen, ...framesAfter(resumed, cut)]).toEqual(whole);
    // Before the rest, the run as the client left it: its start, its state, the step still open.
    expect(eventsOf(resumed.filter((f) => f.id === cut)).slice(0, 2)).toEqual([
      eventsOf(seen)[0],
      { type: EventType.STATE_SNAPSHOT, snapshot: stateOf(eventsOf(seen)) },
    ]);
    expect(checkOrder(eventsOf(resumed))).toEqual([]);
    expect(eventsOf(resumed).at(-1)).toMatchObject({
      type: EventType.RUN_FINISHED,
      runId: "second",
      result: { reply: "echo: go on" },
    });
    await settled(t, "live", 2);
    expect(stateOf(eventsOf(resumed))).toEqual(agentVariables(await store.memoryAt("live", 2), {}));
  });

  it("joins the run with @ag-ui/client's connectAgent: a new client from its start, one cut off after the events it had", async () => {
    await (await fetch(`${t.url}/ag-ui`, input("joined", "joined-open"))).text();
    const held = hold(t.model);
    // The client that sends the message counts the events it gets (their ids are RUN:1, RUN:2, ...), then loses the stream.
    const sender = new AutogramsAgent({ url: `${t.url}/ag-ui`, threadId: "joined" });
    sender.addMessage({ id: "j1", role: "user", content: "hello again" });
    let received = 0;
    const lost = new AbortController();
    const sending = sender
      .runAgent({ runId: "sent", abortController: lost } as never, { onEvent: () => void received++ })
      .catch(() => null);
    await held.started;
    await new Promise((r) => setTimeout(r, 50));
    lost.abort();
    await sending;
    // A page loaded again: a new client, which joins the run from its start.
    const fresh = new AutogramsAgent({ url: `${t.url}/ag-ui`, threadId: "joined" });
    const joining = fresh.connectAgent();
    // The first client, with the messages it had, asks for what it lacks.
    const had = sender.messages.length;
    sender.lastEventId = `sent:${received}`;
    const resuming = sender.connectAgent();
    await new Promise((r) => setTimeout(r, 50));
    held.open();
    const [joined, resumed] = await Promise.all([joining, resuming]);
    expect(received).toBeGreaterThan(0);
    expect(joined.newMessages).toMatchObject([{ role: "assistant", content: "echo: hello again" }]);
    expect(sender.messages.slice(had - 1).filter((m) => m.role === "assistant")).toMatchObject([
      { content: "echo: hello again" },
    ]);
    expect(resumed.newMessages.length + had).toBe(sender.messages.length);
    await settled(t, "joined", 2);
    const variables = agentVariables(await store.memoryAt("joined", 2), {});
    expect([fresh.state, sender.state]).toEqual([variables, variables]);
    // Nothing running: connectAgent resolves with nothing new.
    expect(
      (await new AutogramsAgent({ url: `${t.url}/ag-ui`, threadId: "joined" }).connectAgent()).newMessages,
    ).toEqual([]);
  });

  it("snapshots the variables the turn starts from, also when its message waited for another run (enqueue)", async () => {
    await (await fetch(`${t.url}/ag-ui`, input("queued", "q-open"))).text();
    await (await fetch(`${t.url}/ag-ui`, input("queued", "q-zero", [{ id: "q0", text: "zero" }]))).text();
    const held = hold(t.model);
    const first = fetch(`${t.url}/ag-ui`, input("queued", "q-first", [{ id: "q1", text: "one" }]));
    await held.started;
    // Sent while the first run holds the thread: it waits, and runs from the variables the first leaves.
    const waits = new Promise<void>((r) => (acquiring = (id) => id === "q2" && r()));
    const second = fetch(`${t.url}/ag-ui`, input("queued", "q-second", [{ id: "q2", text: "two" }]));
    await waits;
    held.open();
    const [one, two] = await Promise.all([first.then(sseFrames), second.then(sseFrames)]);
    // The echo agent counts the messages it answered as a turn starts: the first run made it 1.
    expect(eventsOf(one)[1]).toEqual({ type: EventType.STATE_SNAPSHOT, snapshot: { count: 0 } });
    expect(eventsOf(two)[1]).toEqual({ type: EventType.STATE_SNAPSHOT, snapshot: { count: 1 } });
    expect(agentVariables(await store.memoryAt("queued", 3), {})).toEqual({ count: 1 });
    expect(stateOf(eventsOf(two))).toEqual({ count: 2 });
  });
});
