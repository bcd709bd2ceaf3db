// A run whose process was killed after its turn was committed but before its last events were
// stored (between two batches: part of the reply stored, or in a run that opened the thread,
// only the opening's reply): once its lease's lifetime has passed, the next reader, on any
// process, completes it, so the stream's deltas add up to the committed reply.
import { afterAll, describe, expect, it } from "vitest";
import { storedTrace, type TraceEvent } from "@autograms/runtime";
import { openStore, runTurn, type Store } from "@autograms/store";
import { echoAgent } from "../store/support/agents.js";
import { sseFrames, startTestServer, tempFolder } from "../server/support/harness.js";

const folder = tempFolder("autograms-scale-crashed-");
afterAll(() => folder.remove());

/** What the stream's text deltas for the turn's reply node add up to (its last reset on), and its end. */
async function followed(url: string, thread: string, node: string) {
  const events = (await sseFrames(await fetch(`${url}/api/threads/${thread}/runs/latest/stream`))).map(
    (f) => JSON.parse(f.data).event,
  );
  let text = "";
  for (const e of events) {
    if (e.type === "step" && e.event.kind === "user") text = "";
    if (e.type === "text-reset" && e.node === node) text = "";
    if (e.type === "text-delta" && e.node === node) text += e.delta;
  }
  return { text, end: events.at(-1) };
}

/**
 * Makes a message's turn as a server process does and stores only its first events (the opening's
 * reply, in a run that opened the thread; else the first word of the reply), then commits the
 * turn and "dies": the run's last events are never written.
 */
async function crashAfterCommit(store: Store, thread: string, opening: boolean): Promise<string | null> {
  const agent = echoAgent();
  const runId = `${thread}-run`;
  await runTurn(store, agent, thread, null); // the opening: in an opening run, this run's first turn
  const lease = await store.acquire(thread, { messageId: `${thread}-m`, user: "hello" });
  await store.beginRun({ id: runId, lease, user: "hello" });
  const { memory } = await store.load(thread);
  const trace: TraceEvent[] = [];
  const result = await agent.reply("hello", memory ?? undefined, { trace: (e) => trace.push(e) });
  const events = [
    {
      type: "run-start",
      threadId: thread,
      runId,
      messageId: `${thread}-m`,
      user: "hello",
      turn: 2,
      ...(opening ? { opening: true } : {}),
    },
    ...(opening ? [{ type: "text-delta", node: "greet", delta: "Hello! Say something." }] : []),
    { type: "step", event: storedTrace(trace.filter((e) => e.kind === "user"))[0] },
    ...(opening ? [] : [{ type: "text-delta", node: "talk", delta: "echo" }]),
  ];
  await store.appendRunEvents(
    runId,
    events.map((event, i) => ({ seq: i + 1, event })),
  );
  await store.commit(lease, {
    messageId: `${thread}-m`,
    user: "hello",
    reply: result.reply,
    memory: result.memory,
    delta: result.delta,
    trace,
    startedAt: Date.now(),
  });
  return result.reply;
}

describe("a run cut off after its commit", () => {
  it.each([false, true])("is completed for its next reader, the reply whole (opening run: %s)", async (opening) => {
    const url = `sqlite:${folder.path}/crashed-${opening}.db`;
    const store = await openStore(url);
    const thread = `cut-${opening}`;
    const reply = await crashAfterCommit(store, thread, opening);
    expect(reply).toBe("echo: hello");
    // Another process, a lease's lifetime later.
    const later = await openStore(url, { now: () => Date.now() + 20_000 });
    const other = await startTestServer(folder.path, { store: later });
    try {
      const { text, end } = await followed(other.url, thread, "talk");
      expect(end).toMatchObject({ type: "run-finish", turn: 2, reply: "echo: hello" });
      expect(text).toBe("echo: hello");
    } finally {
      await other.close();
      await later.close();
      await store.close();
    }
  });
});
