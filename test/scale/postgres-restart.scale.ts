// A real `autograms serve` on a real Postgres that the test restarts as a crash would (pg_ctl stop
// -m immediate, then start), three times under load and once while idle: the process never dies
// (every client the store holds has its 'error' handled); while the database is down /readyz
// answers 503 with why, the turns in progress fail with a clear error and commit nothing, new
// messages get 503 store_unavailable; once it is back the process serves again by itself, and each
// message sent again (same id) makes exactly one turn.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "@autograms/store";
import { freePort, startPostgres, type PostgresServer } from "../store/support/postgres-server.mjs";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";
import { startServe, writeEchoGraph, type ServeProcess } from "./support/cluster.mjs";
import { json, sseFrames } from "../server/support/harness.js";

let postgres: PostgresServer;
let model: OpenAIServer;
let serve: ServeProcess;
let store: Store;
const dir = mkdtempSync(join(tmpdir(), "autograms-pg-restart-"));

beforeAll(async () => {
  postgres = await startPostgres();
  const url = await postgres.newDatabase();
  // Each answer takes about a second (a byte every 20 ms), so turns are in progress when the database goes.
  model = await startOpenAIServer({ handler: () => ({ drip: { text: "a slow answer" }, everyMs: 20, bytes: 4 }) });
  serve = await startServe({
    graph: writeEchoGraph(dir),
    port: await freePort(),
    cwd: dir,
    env: { OPENAI_API_KEY: "test" },
    args: ["--store", url, "--base-url", model.baseURL, "--model", "test-model", "--lease-ms", "3000"],
  });
  store = await openStore(url);
}, 120_000);
afterAll(async () => {
  serve?.child.kill("SIGKILL");
  await store?.close().catch(() => {});
  await model?.close();
  postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A message's answer: the last run event of its stream, or the error it was refused with. */
async function send(
  thread: string,
  message: string,
  messageId: string,
): Promise<{ status: number; code?: string; end?: { type: string; code?: string; message?: string } }> {
  const res = await fetch(`${serve.url}/api/threads/${thread}/runs`, json({ message, messageId }));
  if (res.status !== 200) return { status: res.status, code: (await res.json()).error.code };
  return { status: 200, end: JSON.parse((await sseFrames(res)).at(-1)!.data).event };
}

const ready = async () => {
  const res = await fetch(`${serve.url}/readyz`);
  return { status: res.status, body: await res.json() };
};

async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}\n${serve.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("autograms serve while its Postgres restarts", () => {
  it("survives, refuses clearly while the database is down, and serves again by itself", async () => {
    const threads = ["a", "b", "c"];
    for (const t of threads) expect((await send(t, "hello", `${t}-0`)).end).toMatchObject({ type: "run-finish" });
    for (let round = 1; round <= 4; round++) {
      const idle = round === 4;
      // Three turns in progress (unless idle), then the database crashes.
      const inProgress = idle ? [] : threads.map((t) => send(t, `message ${round}`, `${t}-${round}`));
      const asked = model.completions.length;
      if (!idle)
        await until(
          "the turns are at the model",
          async () => (await ready()).body.runs === 3 && model.completions.length >= asked + 3,
        );
      postgres.down();
      const answers = await Promise.all(inProgress);
      for (const a of answers) {
        expect(a.status).toBe(200);
        expect(a.end).toMatchObject({
          type: "run-error",
          code: "unavailable",
          message: expect.stringContaining("the database cannot be reached"),
        });
      }
      const down = await ready();
      expect(down).toEqual({
        status: 503,
        body: { status: "store_unavailable", why: "the database cannot be reached" },
      });
      expect(await send("a", "while down", `down-${round}`)).toMatchObject({ status: 503, code: "store_unavailable" });
      expect(serve.child.exitCode).toBeNull();
      postgres.up();
      await until("/readyz answers 200 again", async () => (await ready()).status === 200);
      // The messages that failed, sent again: one turn each; nothing half-committed before.
      for (const t of threads) {
        if (!idle)
          expect((await send(t, `message ${round}`, `${t}-${round}`)).end).toMatchObject({ type: "run-finish" });
      }
      expect(serve.child.exitCode).toBeNull();
    }
    for (const t of threads) {
      const turns = await store.turns(t);
      expect(turns.map((turn) => turn.messageId)).toEqual([null, `${t}-0`, `${t}-1`, `${t}-2`, `${t}-3`]);
      expect(turns.every((turn) => turn.status === "ok")).toBe(true);
      expect(turns.slice(1).map((turn) => turn.reply)).toEqual(Array(4).fill("a slow answer"));
    }
    expect(serve.stderr()).not.toMatch(/Unhandled|uncaught/i);
  });
});
