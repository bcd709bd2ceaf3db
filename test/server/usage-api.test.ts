// Tokens and cost over the HTTP API: each turn's and the thread's totals in GET /api/threads/:id,
// each call's and the turn's in GET .../turns/:seq/calls, priced from the table given as
// `prices`; the model's usage as the real openai client gets it from the local test server.
import { beforeAll, describe, expect, it } from "vitest";
import { Agent, OpenAIModel } from "@autograms/runtime";
import { createApp, type Prices } from "@autograms/server";
import type { Store } from "@autograms/store";
import type { OpenAIServer } from "../support/openai-server.js";
import { graph } from "../runtime/helpers.js";
import { enqueueTurn, usageNodes } from "./support/usage-agent.js";
import { usageServers } from "./support/usage-servers.js";

const servers = usageServers("autograms-usage-api-");
let store: Store;
let openai: OpenAIServer;
beforeAll(() => {
  ({ store, openai } = servers);
});

const serve = (model: string, prices?: Prices): Promise<string> =>
  servers.serve(
    `Usage${model.replace(/\W/g, "")}`,
    new OpenAIModel({ model, baseURL: openai.baseURL, apiKey: "k", stream: true }),
    prices && { prices },
  );

const say = (url: string, thread: string, message: string) => servers.say(url, thread, message, `${thread}-${message}`);

const get = async (url: string) => (await fetch(url)).json() as Promise<any>;

const turn = (input: number, output: number) => enqueueTurn(openai, "Hello!", input, output);

describe("usage over the HTTP API", () => {
  it("gives each turn's and the thread's tokens and cost, priced per million tokens", async () => {
    const url = await serve("priced-model", { "priced-model": { input: 2, output: 10 } });
    turn(1000, 100);
    await say(url, "t1", "hi");
    turn(3000, 300);
    await say(url, "t1", "again");
    const shown = await get(`${url}/api/threads/t1`);
    // 1001 in and 101 out: 1001 * 2 / 1e6 + 101 * 10 / 1e6.
    expect(shown.turns.map((t: any) => t.usage)).toEqual([
      { inputTokens: 1001, outputTokens: 101, cost: 0.003012 },
      { inputTokens: 3001, outputTokens: 301, cost: 0.009012 },
    ]);
    expect(shown.thread.usage).toEqual({ inputTokens: 4002, outputTokens: 402, cost: 0.012024 });

    const calls = await get(`${url}/api/threads/t1/turns/2/calls`);
    const usages = calls.events.map((e: any) => [e.kind, e.usage]);
    expect(usages).toEqual([
      ["transition", { model: "priced-model", inputTokens: 1, outputTokens: 1, cost: 0.000012 }],
      ["generate", { model: "priced-model", inputTokens: 3000, outputTokens: 300, cost: 0.009 }],
    ]);
    expect(calls.usage).toEqual({ inputTokens: 3001, outputTokens: 301, cost: 0.009012 });
  });

  it("gives the tokens without a cost for a model the table does not price", async () => {
    const url = await serve("other-model", { "priced-model": { input: 2, output: 10 } });
    turn(50, 5);
    await say(url, "t2", "hi");
    const shown = await get(`${url}/api/threads/t2`);
    expect(shown.turns[0].usage).toEqual({ inputTokens: 51, outputTokens: 6 });
    expect(shown.thread.usage).toEqual({ inputTokens: 51, outputTokens: 6 });
    const calls = await get(`${url}/api/threads/t2/turns/1/calls`);
    expect(calls.usage).toEqual({ inputTokens: 51, outputTokens: 6 });
    expect(calls.events.every((e: any) => e.usage.cost === undefined)).toBe(true);
  });

  it("refuses a price table that is not one, naming the model", () => {
    const agent = new Agent(graph(usageNodes), { model: new OpenAIModel({ model: "m", apiKey: "k" }) });
    expect(() => createApp({ agent, store, prices: { m: { input: 1 } } as never })).toThrow(
      'createApp: prices: model \'m\': a price is { "input": n, "output": n }, each a number of at least 0 per million tokens',
    );
    expect(() => createApp({ agent, store, prices: { m: { input: 1, output: 2, cached: 1 } } as never })).toThrow(
      "createApp: prices: model 'm': unknown field 'cached'",
    );
  });
});
