// MCP tools in agents: real servers written with @modelcontextprotocol/sdk, over stdio and
// Streamable HTTP, their tools called directly and offered to the model at a node.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Agent, ScriptedModel, toolDefinitionOf, type ToolChatMessage } from "@autograms/runtime";
import { checkMcpConfig, importName, mcpTools } from "@autograms/runtime/mcp";
import { graph, n } from "../runtime/helpers.js";
import { open, opened } from "./support/opened.js";
import { startHttpShop } from "./support/shop-server.mjs";

const SERVER = fileURLToPath(new URL("./support/shop-server.mjs", import.meta.url));
const stdio = (extra: object = {}) => ({ command: process.execPath, args: [SERVER], ...extra });

describe("mcpTools", () => {
  it("offers a stdio server's tools with the server's names, descriptions and schemas", async () => {
    const { tools, servers } = await open({ mcpServers: { shop: stdio() } });
    expect(Object.keys(tools).sort()).toEqual([
      "crash",
      "get-price",
      "greet",
      "hang",
      "out_of_stock",
      "price_of",
      "subscribe",
    ]);
    expect(Object.keys(servers.shop!).sort()).toEqual([
      "crash",
      "get_price",
      "greet",
      "hang",
      "out_of_stock",
      "price_of",
      "subscribe",
    ]);
    const definition = toolDefinitionOf(tools.price_of);
    expect(definition).toMatchObject({ name: "price_of", description: "The price of an item, in euros." });
    expect(definition!.parameters).toMatchObject({
      type: "object",
      properties: { item: { type: "string", description: "what to price" } },
      required: ["item"],
    });
    expect(toolDefinitionOf(servers.shop!.get_price)!.name).toBe("get-price");
  });

  it("gives the structured content when there is some, else the text; an error result throws", async () => {
    const { tools } = await open({ mcpServers: { shop: stdio() } });
    expect(await tools.price_of!({ item: "tea" })).toEqual({ item: "tea", price: 2.5 });
    expect(await tools.greet!({ name: "Ada" })).toBe("Hello, Ada!");
    await expect(tools.out_of_stock!({})).rejects.toThrow("MCP tool 'out_of_stock' of 'shop' failed: no more cake");
  });

  it("fails a call to a server that died as a tool error, and starts the server again for the next call", async () => {
    const mcp = await open({ mcpServers: { shop: stdio() } });
    await expect(mcp.tools.crash!({})).rejects.toThrow(/^MCP tool 'crash' of 'shop' failed: it exited with code 3/);
    expect(mcp.health().shop).toMatchObject({ up: false });
    expect(await mcp.tools.greet!({ name: "Ada" })).toBe("Hello, Ada!");
    expect(mcp.health().shop).toEqual({ up: true });
  });

  it("talks to a Streamable HTTP server", async () => {
    const http = await startHttpShop();
    opened.push(http);
    const { tools } = await open({ mcpServers: { remote: { url: http.url } } });
    expect(await tools.price_of!({ item: "cake" })).toEqual({ item: "cake", price: 3 });
    expect(http.calls).toEqual([["price_of", "cake"]]);
  });

  it("refuses two servers offering one name, unless a prefix tells them apart", async () => {
    const http = await startHttpShop();
    opened.push(http);
    await expect(mcpTools({ mcpServers: { a: { url: http.url }, b: { url: http.url } } })).rejects.toThrow(
      "MCP servers 'a' and 'b' both offer a tool 'price_of': give one of them a \"prefix\" in the configuration",
    );
    const { tools } = await open({ mcpServers: { a: { url: http.url }, b: { url: http.url, prefix: "b_" } } });
    expect(Object.keys(tools)).toContain("b_price_of");
    expect(await tools.b_price_of!({ item: "tea" })).toEqual({ item: "tea", price: 2.5 });
  });

  it("says which server could not be started, and checks the configuration", async () => {
    await expect(mcpTools({ mcpServers: { gone: { command: "/no/such/program" } } })).rejects.toThrow(
      "MCP server 'gone' (/no/such/program) could not be started: the command '/no/such/program' was not found",
    );
    expect(() => checkMcpConfig({ mcpServers: { x: { args: [] } } }, ".mcp.json")).toThrow(
      `.mcp.json: server 'x' needs either "command" (a program to start) or "url" (a Streamable HTTP endpoint)`,
    );
    expect(() => checkMcpConfig({ servers: {} }, ".mcp.json")).toThrow('.mcp.json: expected { "mcpServers"');
    expect(() => checkMcpConfig({ mcpServers: { x: { command: "x", closeGraceMs: "1s" } } })).toThrow(
      `server 'x': "closeGraceMs" must be a whole number above 0`,
    );
    expect(() => checkMcpConfig({ mcpServers: { x: { url: "not a url" } } })).toThrow(
      `server 'x': "url" is not a URL: not a url`,
    );
    expect([importName("get-price"), importName("shop.price"), importName("2fa"), importName("ok")]).toEqual([
      "get_price",
      "shop_price",
      "_2fa",
      "ok",
    ]);
  });

  it("are an agent's tools: called in its code and offered to the model at a node", async () => {
    const { servers } = await open({ mcpServers: { shop: stdio() } });
    const shop = servers.shop!;
    const g = graph(
      [
        n({
          name: "look",
          action: "code",
          instruction: 'let tea = price_of({ item: "tea" }).price',
          transitions: ["answer"],
        }),
        n({
          name: "answer",
          action: "chat",
          instruction: "The tea costs $tea. Answer with the tools.",
          tools: ["price_of", "get_price"],
          transitions: ["answer"],
        }),
      ],
      {
        tools: {
          price_of: { module: "mcp:shop", export: "price_of" },
          get_price: { module: "mcp:shop", export: "get_price" },
        },
      },
    );
    const model = new ScriptedModel({
      tools: [
        { toolCalls: [{ id: "c1", name: "get-price", arguments: { item: "cake" } }] },
        "Tea is 2.5 EUR, cake 3 EUR.",
      ],
    });
    const agent = new Agent(g, { model, tools: { price_of: shop.price_of!, get_price: shop.get_price! } });
    expect((await agent.reply("")).reply).toBe("Tea is 2.5 EUR, cake 3 EUR.");
    const [first, second] = model.calls
      .filter((c) => c.kind === "tools")
      .map((c) => c.request as { messages: ToolChatMessage[]; tools: { name: string }[] });
    expect(first!.tools.map((t) => t.name)).toEqual(["price_of", "get-price"]);
    expect((first!.messages.at(-1) as { content: string }).content).toContain("The tea costs 2.5.");
    expect(second!.messages.at(-1)).toEqual({ role: "tool", toolCallId: "c1", content: "3 EUR" });
  });
});
