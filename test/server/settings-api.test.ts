// A thread's model settings over the HTTP API: the models to choose among (the local
// OpenAI-compatible server's GET /models, through the real openai client), the settings of a
// thread checked field by field, reaching the model's requests for its next turns, and shown with
// the thread and with each turn they applied to.
import { beforeAll, describe, expect, it } from "vitest";
import { OfflineModel, OpenAIModel } from "@autograms/runtime";
import type { OpenAIServer } from "../support/openai-server.js";
import { json } from "./support/harness.js";
import { enqueueTurn } from "./support/usage-agent.js";
import { usageServers } from "./support/usage-servers.js";

const servers = usageServers("autograms-settings-api-", { models: ["bigger-model"] });
let openai: OpenAIServer;
beforeAll(() => {
  openai = servers.openai;
});

const serve = (name: string, model = new OpenAIModel({ model: "test-model", baseURL: openai.baseURL, apiKey: "k" })) =>
  servers.serve(name, model);
const say = (url: string, thread: string, message: string) => servers.say(url, thread, message);

const put = (url: string, body: unknown) => fetch(url, { ...json(body), method: "PUT" });
const get = async (url: string) => (await fetch(url)).json() as Promise<any>;

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
