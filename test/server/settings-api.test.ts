// A thread's model settings over the HTTP API: the models to choose among (the local
// OpenAI-compatible server's GET /models, through the real openai client), the settings of a
// thread checked field by field, reaching the model's requests for its next turns, and shown with
// the thread and with each turn they applied to.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { Agent, OfflineModel, OpenAIModel } from "@autograms/runtime";
import { listen, type RunningServer } from "@autograms/server";
import { openStore, type Store } from "@autograms/store";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";
import { graph } from "../runtime/helpers.js";
import { json, tempFolder } from "./support/harness.js";
import { enqueueTurn, usageNodes } from "./support/usage-agent.js";

const folder = tempFolder("autograms-settings-api-");
let store: Store;
let openai: OpenAIServer;
const servers: RunningServer[] = [];
beforeAll(async () => {
  store = await openStore(`sqlite:${join(folder.path, "threads.db")}`);
  openai = await startOpenAIServer({ models: ["bigger-model"] });
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await store.close();
  await openai.close();
  folder.remove();
});

async function serve(
  name: string,
  model = new OpenAIModel({ model: "test-model", baseURL: openai.baseURL, apiKey: "k" }),
) {
  const agent = new Agent(graph(usageNodes, { agent: name }), { model });
  const server = await listen({ agent, store, port: 0 });
  servers.push(server);
  return server.url;
}

const put = (url: string, body: unknown) => fetch(url, { ...json(body), method: "PUT" });
const get = async (url: string) => (await fetch(url)).json() as Promise<any>;

async function say(url: string, thread: string, message: string): Promise<void> {
  const res = await fetch(`${url}/api/threads/${thread}/runs`, json({ message }));
  expect(res.status).toBe(200);
  await res.text();
}

describe("model settings over the HTTP API", () => {
  it("lists the server's models and plays a thread's next turns with its settings", async () => {
    const url = await serve("SettingsA");
    expect(await get(`${url}/api/models`)).toEqual({
      model: "test-model",
      models: ["test-model", "bigger-model"],
      settable: true,
      switchable: true,
      maxTemperature: 2,
    });
    enqueueTurn(openai, "Hello!", 10, 2);
    await say(url, "s1", "hi");
    const settings = { model: "bigger-model", temperature: 0.7, maxTokens: 64 };
    const res = await put(`${url}/api/threads/s1/settings`, settings);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: "s1", settings });
    const before = openai.completions.length;
    enqueueTurn(openai, "Again!", 10, 2);
    await say(url, "s1", "again");
    const sent = openai.completions.slice(before);
    expect(sent.map((r) => r.body.model)).toEqual(["bigger-model", "bigger-model"]);
    expect(sent.at(-1)!.body).toMatchObject({ temperature: 0.7, max_tokens: 64 });
    const shown = await get(`${url}/api/threads/s1`);
    expect(shown.thread.settings).toEqual(settings);
    expect(shown.turns.map((t: any) => t.settings)).toEqual([undefined, settings]);

    // `{}`: the server's own model again, for the next turns; the turn before keeps its record.
    expect((await put(`${url}/api/threads/s1/settings`, {})).status).toBe(200);
    enqueueTurn(openai, "Back.", 10, 2);
    await say(url, "s1", "back");
    expect(openai.completions.at(-1)!.body.model).toBe("test-model");
    expect(openai.completions.at(-1)!.body.temperature).toBeUndefined();
    const after = await get(`${url}/api/threads/s1`);
    expect(after.thread.settings).toBeNull();
    expect(after.turns.map((t: any) => t.settings)).toEqual([undefined, settings, undefined]);
  });

  it("refuses settings out of range, or a model the server does not list, naming the field", async () => {
    const url = await serve("SettingsB");
    const refusal = async (body: unknown) => {
      const res = await put(`${url}/api/threads/s2/settings`, body);
      return { status: res.status, body: (await res.json()) as any };
    };
    expect(await refusal({ temperature: 2.5 })).toMatchObject({
      status: 400,
      body: {
        error: { code: "bad_request", message: "temperature: must be a number from 0 to 2", field: "temperature" },
      },
    });
    expect((await refusal({ maxTokens: -1 })).body.error).toMatchObject({ field: "maxTokens" });
    expect((await refusal({ model: "gpt-5" })).body.error).toMatchObject({
      message: "model: must be one of the server's models: test-model, bigger-model",
      field: "model",
    });
    expect((await refusal({ seed: 1 })).body.error.field).toBe("seed");
    expect((await refusal([1])).status).toBe(400);
    // Nothing was kept: a thread not made yet may be given settings, but none of these.
    expect((await get(`${url}/api/threads/s2`)).error.code).toBe("unknown_thread");
  });

  it("offers the offline model alone, with nothing to set", async () => {
    const url = await serve("SettingsC", new OfflineModel());
    expect(await get(`${url}/api/models`)).toEqual({
      model: "offline",
      models: ["offline"],
      settable: false,
      switchable: false,
      maxTemperature: 2,
    });
    const res = await put(`${url}/api/threads/s3/settings`, { temperature: 1 });
    expect(res.status).toBe(409);
    expect(((await res.json()) as any).error).toMatchObject({
      code: "not_settable",
      message: "the model the server was started with ('offline') takes no settings",
    });
  });
});
