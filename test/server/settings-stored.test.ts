// A thread's model settings kept with the thread in the store: a server started again on the same
// SQLite file, and a second server on the same file (as another process of the store), play the
// thread's runs with the settings the first one was given; settings damaged in the store refuse
// the run and the thread's page with an error naming the thread and the field, until new ones
// are given. The replays of a turn (its calls, `threads show`, `eval --threads`) give it the
// settings it ran with, as its trace recorded them, not the thread's settings now.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Agent, OpenAIModel } from "@autograms/runtime";
import { listen, type RunningServer } from "@autograms/server";
import { openStore, type Store } from "@autograms/store";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";
import { graph } from "../runtime/helpers.js";
import { autogramsInProcess } from "../cli/support/run-cli.js";
import { json, tempFolder } from "./support/harness.js";
import { enqueueTurn, usageNodes } from "./support/usage-agent.js";

const folder = tempFolder("autograms-settings-stored-");
let openai: OpenAIServer;
beforeAll(async () => {
  openai = await startOpenAIServer({ models: ["bigger-model"] });
});
afterAll(async () => {
  await openai.close();
  folder.remove();
});

/** A server of the usage agent on its own store of the SQLite file `file` (as a process of its own). */
async function serve(file: string): Promise<{ url: string; close(): Promise<void>; store: Store }> {
  const store = await openStore(`sqlite:${join(folder.path, file)}`);
  const model = new OpenAIModel({ model: "test-model", baseURL: openai.baseURL, apiKey: "k" });
  const server: RunningServer = await listen({
    agent: new Agent(graph(usageNodes, { agent: "Stored" }), { model }),
    store,
    port: 0,
  });
  return {
    url: server.url,
    store,
    async close() {
      await server.close();
      await store.close();
    },
  };
}

const put = (url: string, body: unknown) => fetch(url, { ...json(body), method: "PUT" });
const get = async (url: string) => (await fetch(url)).json() as Promise<any>;
/** Sends a message and reads its run to the end; the model's requests it made. */
async function say(url: string, thread: string, message: string) {
  const before = openai.completions.length;
  enqueueTurn(openai, `re: ${message}`, 10, 2);
  const res = await fetch(`${url}/api/threads/${thread}/runs`, json({ message }));
  expect(res.status).toBe(200);
  await res.text();
  return openai.completions.slice(before).map((r) => r.body);
}

const settings = { model: "bigger-model", temperature: 0.7, maxTokens: 64 };

describe("a thread's model settings kept in the store", () => {
  it("survive the server's restart on the same SQLite file", async () => {
    const first = await serve("restart.db");
    try {
      await say(first.url, "r1", "hi");
      expect((await put(`${first.url}/api/threads/r1/settings`, settings)).status).toBe(200);
    } finally {
      await first.close();
    }

    const again = await serve("restart.db");
    try {
      expect((await get(`${again.url}/api/threads/r1`)).thread.settings).toEqual(settings);
      const sent = await say(again.url, "r1", "after the restart");
      expect(sent.map((b) => b.model)).toEqual(["bigger-model", "bigger-model"]);
      expect(sent.at(-1)).toMatchObject({ temperature: 0.7, max_tokens: 64 });
      // The turn records what it ran with, as before the restart.
      expect((await get(`${again.url}/api/threads/r1`)).turns.at(-1).settings).toEqual(settings);
    } finally {
      await again.close();
    }
  });

  it("are seen by a second server on the same store, and go with the thread", async () => {
    const [a, b] = [await serve("shared.db"), await serve("shared.db")];
    try {
      // Given before the thread's first message, on one server; its first run on the other.
      expect(await (await put(`${a.url}/api/threads/s1/settings`, { temperature: 1.2 })).json()).toEqual({
        id: "s1",
        settings: { temperature: 1.2 },
      });
      const sent = await say(b.url, "s1", "hi");
      // The reply is asked at the thread's temperature (a decision at 0 whatever is set).
      expect(sent.map((r) => r.model)).toEqual(["test-model", "test-model", "test-model"]);
      expect(sent.map((r) => r.temperature)).toContain(1.2);
      expect((await get(`${b.url}/api/threads/s1`)).thread.settings).toEqual({ temperature: 1.2 });
      // `{}` on the second: the server's own again, on the first too.
      expect((await put(`${b.url}/api/threads/s1/settings`, {})).status).toBe(200);
      expect((await get(`${a.url}/api/threads/s1`)).thread.settings).toBeNull();
      expect((await say(a.url, "s1", "again")).map((r) => r.temperature)).not.toContain(1.2);
      // Deleting the thread on one server takes its settings away for both.
      expect((await put(`${a.url}/api/threads/s1/settings`, settings)).status).toBe(200);
      expect((await fetch(`${b.url}/api/threads/s1`, { method: "DELETE" })).status).toBe(204);
      expect(await a.store.threadSettings("s1")).toBeNull();
      expect((await say(a.url, "s1", "a new thread")).at(-1)!.model).toBe("test-model");
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("refuses a run on settings damaged in the store, naming the thread and the field, until new ones are given", async () => {
    const server = await serve("damaged.db");
    try {
      await say(server.url, "d1", "hi");
      const db = new Database(join(folder.path, "damaged.db"));
      const damage = (text: string) => db.prepare("UPDATE threads SET settings = ? WHERE id = 'd1'").run(text);
      try {
        const refusal = async () => {
          const res = await fetch(`${server.url}/api/threads/d1/runs`, json({ message: "hello" }));
          return { status: res.status, error: ((await res.json()) as any).error };
        };
        damage('{"temperature": 9}');
        expect(await refusal()).toEqual({
          status: 500,
          error: {
            code: "bad_settings",
            message:
              "thread d1's model settings in the store are damaged: temperature must be a number from 0 to 2; PUT /api/threads/d1/settings gives it new ones",
          },
        });
        damage('{"model": "bigger-mo');
        const notJson = await refusal();
        expect(notJson.status).toBe(500);
        expect(notJson.error.message).toMatch(
          /^thread d1's model settings in the store are damaged: they are not JSON \(/,
        );
        // The thread's page says the same; the server goes on serving.
        const page = await fetch(`${server.url}/api/threads/d1`);
        expect(page.status).toBe(500);
        expect(((await page.json()) as any).error.code).toBe("bad_settings");
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        // Nothing ran: the thread has its first turn only.
        expect((await server.store.thread("d1"))!.version).toBe(1);
      } finally {
        db.close();
      }
      expect((await put(`${server.url}/api/threads/d1/settings`, {})).status).toBe(200);
      expect((await say(server.url, "d1", "mended")).at(-1)!.model).toBe("test-model");
    } finally {
      await server.close();
    }
  });

  it("are given again from each turn's record by its replays: its calls, threads show, eval --threads", async () => {
    const server = await serve("replay.db");
    const url = `sqlite:${join(folder.path, "replay.db")}`;
    try {
      await say(server.url, "p1", "hi");
      await put(`${server.url}/api/threads/p1/settings`, settings);
      await say(server.url, "p1", "with settings");
      // The thread's settings change after: a replay gives each turn what it ran with.
      await put(`${server.url}/api/threads/p1/settings`, { temperature: 0.1 });
      const calls = async (seq: number) =>
        (await get(`${server.url}/api/threads/p1/turns/${seq}/calls`)).events as any[];
      const [first, second] = [await calls(1), await calls(2)];
      expect(second.length).toBeGreaterThan(0);
      expect(second.map((e) => e.settings)).toEqual(second.map(() => settings));
      expect(first.map((e) => e.settings)).toEqual(first.map(() => undefined));
    } finally {
      await server.close();
    }
    const shown = await autogramsInProcess(["threads", "show", "p1", "--store", url, "--json"]);
    expect(JSON.parse(shown.stdout).turns.map((t: any) => t.settings)).toEqual([undefined, settings]);
    const text = await autogramsInProcess(["threads", "show", "p1", "--store", url]);
    expect(text.stdout).toContain("\n#2 (model bigger-model, temperature 0.7, max tokens 64)\n");
    // Played again on the model: each turn's requests with the settings it ran with.
    const file = join(folder.path, "stored.graph.json");
    writeFileSync(file, JSON.stringify(graph(usageNodes, { agent: "Stored" })));
    const before = openai.completions.length;
    enqueueTurn(openai, "re: hi", 10, 2);
    enqueueTurn(openai, "re: with settings", 10, 2);
    const replayed = await autogramsInProcess(
      ["eval", file, "--threads", url, "--base-url", openai.baseURL, "--model", "test-model"],
      { env: { OPENAI_API_KEY: "k" } },
    );
    expect(replayed.stdout).toContain("p1  2 turns: the same");
    expect(replayed.code).toBe(0);
    const sent = openai.completions.slice(before).map((r) => r.body);
    expect(sent.map((b) => b.model)).toEqual(["test-model", "test-model", "bigger-model", "bigger-model"]);
    expect(sent.at(-1)).toMatchObject({ temperature: 0.7, max_tokens: 64 });
  }, 120_000);
});
