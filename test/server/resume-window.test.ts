// The resume window (`resumeWindowMs`, `serve --resume-window-ms`): a run's stream resumes while
// the window lasts; once the run has ended longer ago, its events are dropped from the store and a
// resume is answered 410 run_expired at once, while everything read from the thread's turns (its
// history, the chat's messages, a replay of a turn, `threads show`, `eval --threads`) is as it was.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { startPostgres, type PostgresServer } from "../store/support/postgres-server.mjs";
import { autogramsInProcess } from "../cli/support/run-cli.js";
import { echoGraph } from "../store/support/agents.js";
import { chatBody, json, settled, sseFrames, startTestServer, tempFolder, userMessage } from "./support/harness.js";

const WINDOW_MS = 1_500;
const folder = tempFolder("autograms-server-resume-window-");
let postgres: PostgresServer;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => {
  postgres?.stop();
  folder.remove();
});

/** Until the store holds none of the run's events (the sweep runs every second here). */
async function dropped(store: { runEvents(id: string): Promise<unknown[]> }, runId: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await store.runEvents(runId)).length > 0) {
    if (Date.now() > deadline) throw new Error(`the events of run ${runId} were not dropped`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each([
  ["SQLite", () => `sqlite:${join(folder.path, `${Math.random().toString(36).slice(2)}.db`)}`],
  ["Postgres", () => postgres.newDatabase()],
])("the resume window on %s", (_name, storeUrl) => {
  it("resumes within the window; after it, 410 run_expired, and the thread's turns read as before", async () => {
    const url = await storeUrl();
    const s = await startTestServer(folder.path, { storeUrl: url, resumeWindowMs: WINDOW_MS });
    try {
      const frames = await sseFrames(await fetch(`${s.url}/api/chat`, json(chatBody("w", [userMessage("m1", "hi")]))));
      await settled(s, "w", 2);
      const runId = (await s.store.latestRun("w"))!.id;
      const lastSeen = (n: number) => ({ headers: { "last-event-id": `${runId}:${n}` } });
      // Within the window: the rest of the stream.
      const rest = await fetch(`${s.url}/api/chat/w/stream`, lastSeen(1));
      expect(rest.status).toBe(200);
      expect(await sseFrames(rest)).toEqual(frames.slice(1));
      const history = await (await fetch(`${s.url}/api/threads/w`)).json();
      const messages = await (await fetch(`${s.url}/api/chat/w/messages`)).json();

      const record = await s.store.run(runId);
      await dropped(s.store, runId);
      for (const [path, init] of [
        ["/api/chat/w/stream", lastSeen(1)],
        // Whatever frame is named: the store cannot tell which frames there were.
        ["/api/chat/w/stream", lastSeen(frames.length)],
        ["/api/threads/w/runs/latest/stream", lastSeen(1)],
        // The whole of the thread's latest run, asked for with 0.
        ["/api/threads/w/runs/latest/stream", { headers: { "last-event-id": "0" } }],
      ] as const) {
        const res = await fetch(`${s.url}${path}`, init);
        expect(res.status).toBe(410);
        expect(await res.json()).toMatchObject({
          error: { code: "run_expired", message: expect.stringContaining(`run ${runId} of thread w`) },
        });
      }
      // Nothing in progress, nothing asked for: nothing to send, as before.
      expect((await fetch(`${s.url}/api/chat/w/stream`)).status).toBe(204);
      // The run's record stays; the turns, their traces and the chat's messages are untouched.
      expect(await s.store.run(runId)).toEqual(record);
      expect(await (await fetch(`${s.url}/api/threads/w`)).json()).toEqual(history);
      expect(await (await fetch(`${s.url}/api/chat/w/messages`)).json()).toEqual(messages);
      // A turn replayed from its trace.
      const replay = await fetch(`${s.url}/api/threads/w/runs/latest/stream`, {
        headers: { "last-event-id": "turn-2:0" },
      });
      expect(replay.status).toBe(200);
      const replayed = await sseFrames(replay);
      expect(JSON.parse(replayed.at(-1)!.data).event).toMatchObject({ type: "run-finish", reply: "echo: hi" });
      // The next message starts a run as ever.
      const next = await sseFrames(await fetch(`${s.url}/api/chat`, json(chatBody("w", [userMessage("m2", "again")]))));
      expect(next.some((f) => f.data.includes("echo: again"))).toBe(true);
    } finally {
      await s.close();
    }
    // The command line reads the same turns.
    const shown = await autogramsInProcess(["threads", "show", "w", "--store", url, "--json"]);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout).turns.map((t: { user: string | null }) => t.user)).toEqual([null, "hi", "again"]);
    const graph = join(folder.path, "echo.graph.json");
    writeFileSync(graph, JSON.stringify(echoGraph()));
    const replayedThreads = await autogramsInProcess(["eval", graph, "--threads", url, "--strict"]);
    expect(replayedThreads.stderr).toBe("");
    expect(replayedThreads.code).toBe(0);
    expect(replayedThreads.stdout).toContain("w  3 turns: the same");
  });
});
