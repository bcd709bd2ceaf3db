// The tool playground's API: the served agent's tools (a native defineTool tool and a real MCP
// server's, over stdio, with their schemas; a plain function with none) listed, and called outside
// any turn: results, the tools' own failures as answers, arguments checked against the schema,
// a plain function's argument list, unknown names, the token, and the time limit.
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Agent, OfflineModel, defineTool, type Graph } from "@autograms/runtime";
import { openStore, type Store } from "@autograms/store";
import { createApp, listen, type RunningServer } from "@autograms/server";
import { mcpTools, type McpTools } from "@autograms/runtime/mcp";
import { graph, n } from "../runtime/helpers.js";
import { json, tempFolder } from "./support/harness.js";

const SHOP = fileURLToPath(new URL("../mcp/support/shop-server.mjs", import.meta.url));

const weather = defineTool({
  name: "weather",
  description: "Today's weather in a city.",
  parameters: {
    type: "object",
    properties: {
      city: { type: "string", description: "the city" },
      unit: { type: "string", enum: ["C", "F"] },
      days: { type: "integer" },
    },
    required: ["city"],
  },
  run: ({ city, unit = "C" }: { city: string; unit?: string }) => {
    if (city === "Atlantis") throw new Error("no weather station in Atlantis");
    return { city, temperature: unit === "C" ? 21 : 70, unit };
  },
});

let aborted: unknown;
const slow = defineTool({
  name: "slow",
  description: "Never answers; says when it is stopped.",
  parameters: { type: "object", properties: {} },
  run: (_args: object, options) =>
    new Promise((resolve) => {
      options?.signal?.addEventListener("abort", () => {
        aborted = options.signal!.reason;
        resolve(null);
      });
    }),
});

function toolsGraph(): Graph {
  return graph([n({ name: "hello", action: "chat_exact", instruction: "Hello.", transitions: ["hello"] })], {
    tools: {
      weather: { module: "./tools.js", export: "weather" },
      slow: { module: "./tools.js", export: "slow" },
      plain: { module: "./tools.js", export: "plain" },
      price_of: { module: "mcp:shop", export: "price_of" },
      out_of_stock: { module: "mcp:shop", export: "out_of_stock" },
    },
  });
}

const folder = tempFolder("autograms-tools-api-");
let store: Store;
let mcp: McpTools;
let agent: Agent;
const servers: RunningServer[] = [];
beforeAll(async () => {
  store = await openStore(`sqlite:${join(folder.path, "threads.db")}`);
  mcp = await mcpTools({ mcpServers: { shop: { command: process.execPath, args: [SHOP] } } });
  const shop = mcp.servers.shop!;
  agent = new Agent(toolsGraph(), {
    model: new OfflineModel(),
    tools: {
      weather,
      slow,
      plain: (a: unknown, b?: unknown) => ({ a, b: b ?? null }),
      price_of: shop.price_of!,
      out_of_stock: shop.out_of_stock!,
    },
  });
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await mcp.close();
  await store.close();
  folder.remove();
});

async function serve(options: { token?: string } = {}): Promise<string> {
  const server = await listen({ agent, store, port: 0, ...options });
  servers.push(server);
  return server.url;
}
const call = (url: string, name: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/api/tools/${name}/call`, json(body, headers));

describe("the tool playground's API", () => {
  it("lists the tools, native and MCP with their schemas, a plain function with none", async () => {
    const url = await serve();
    const { tools } = (await (await fetch(`${url}/api/tools`)).json()) as { tools: { name: string }[] };
    expect(tools.map((t) => t.name).sort()).toEqual(["out_of_stock", "plain", "price_of", "slow", "weather"]);
    expect(tools.find((t) => t.name === "plain")).toEqual({ name: "plain", parameters: null });
    expect(tools.find((t) => t.name === "weather")).toEqual({
      name: "weather",
      description: "Today's weather in a city.",
      parameters: weather.definition.parameters,
    });
    expect(tools.find((t) => t.name === "price_of")).toMatchObject({
      description: "The price of an item, in euros.",
      parameters: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
    });
  });

  it("answers a call with the tool's result, and a tool's own failure as an error answer", async () => {
    const url = await serve();
    const ok = await call(url, "weather", { arguments: { city: "Oslo", unit: "F" } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ result: { city: "Oslo", temperature: 70, unit: "F" } });
    const mcpOk = await call(url, "price_of", { arguments: { item: "tea" } });
    expect(await mcpOk.json()).toEqual({ result: { item: "tea", price: 2.5 } });

    const failed = await call(url, "weather", { arguments: { city: "Atlantis" } });
    expect(failed.status).toBe(200);
    expect(await failed.json()).toEqual({ error: { code: "tool_failed", message: "no weather station in Atlantis" } });
    const mcpFailed = await call(url, "out_of_stock", {});
    expect(await mcpFailed.json()).toEqual({
      error: { code: "tool_failed", message: "MCP tool 'out_of_stock' of 'shop' failed: no more cake" },
    });
  });

  it("refuses arguments the schema refuses, a bad body and an unknown tool, naming what is wrong", async () => {
    const url = await serve();
    const missing = await call(url, "weather", { arguments: { unit: "C" } });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: { code: "bad_arguments", message: "argument 'city' is missing", field: "arguments" },
    });
    const wrong = await call(url, "weather", { arguments: { city: "Oslo", unit: "K", days: 1.5 } });
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toBe(
      "argument 'unit' must be one of \"C\", \"F\"; argument 'days' must be integer, not number",
    );
    const mcpWrong = await call(url, "price_of", { arguments: { item: 3 } });
    expect(await mcpWrong.json()).toMatchObject({
      error: { code: "bad_arguments", message: "argument 'item' must be string, not number" },
    });
    const notObject = await call(url, "weather", { arguments: ["Oslo"] });
    expect(notObject.status).toBe(400);
    expect(await notObject.json()).toEqual({
      error: {
        code: "bad_request",
        message: "arguments: must be an object of the tool's arguments",
        field: "arguments",
      },
    });
    const unknown = await call(url, "nowhere", { arguments: {} });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: "unknown_tool" } });
  });

  it("calls a plain function with its argument list, or an object as its one argument", async () => {
    const url = await serve();
    const answer = async (args: unknown) => (await call(url, "plain", { arguments: args })).json();
    expect(await answer([2, { n: 40 }])).toEqual({ result: { a: 2, b: { n: 40 } } });
    expect(await answer([2])).toEqual({ result: { a: 2, b: null } });
    expect(await answer({ x: 1 })).toEqual({ result: { a: { x: 1 }, b: null } });
    const described = await call(url, "weather", { arguments: [] });
    expect(described.status).toBe(400);
    expect(await described.json()).toMatchObject({ error: { code: "bad_request", field: "arguments" } });
  });

  it("is under the server's token like the rest of the API", async () => {
    const url = await serve({ token: "secret-token" });
    expect((await fetch(`${url}/api/tools`)).status).toBe(401);
    expect((await call(url, "weather", { arguments: { city: "Oslo" } })).status).toBe(401);
    const res = await call(url, "weather", { arguments: { city: "Oslo" } }, { authorization: "Bearer secret-token" });
    expect(await res.json()).toEqual({ result: { city: "Oslo", temperature: 21, unit: "C" } });
  });

  it("stops a call that takes longer than 30 s and answers 504", async () => {
    const served = createApp({ agent, store });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const pending = served.app.request("/api/tools/slow/call", json({ arguments: {} }));
      await vi.advanceTimersByTimeAsync(29_000);
      expect(aborted).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1_000);
      const res = await pending;
      expect(res.status).toBe(504);
      expect(await res.json()).toEqual({
        error: { code: "tool_timeout", message: "tool 'slow' did not answer within 30 s; it was stopped" },
      });
      expect(String(aborted)).toContain("stopped after 30000 ms");
    } finally {
      vi.useRealTimers();
      await served.close();
    }
  });
});
