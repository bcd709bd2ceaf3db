// The shop's MCP server, written with @modelcontextprotocol/sdk: a price list and a stock count,
// over stdio. The agent starts it as `.mcp.json` says (`node server.mjs`).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const ITEMS = { tea: { price: 2.5, stock: 12 }, cake: { price: 3, stock: 0 }, scone: { price: 1.8, stock: 5 } };

const server = new McpServer({ name: "shop", version: "1.0.0" });

server.registerTool(
  "price_of",
  {
    description: "The price of an item of the shop, in euros.",
    inputSchema: { item: z.string().describe("the item, e.g. tea") },
    outputSchema: { item: z.string(), price: z.number() },
  },
  async ({ item }) => {
    const found = ITEMS[item.toLowerCase()];
    if (!found)
      return {
        content: [{ type: "text", text: `the shop sells no ${item} (it sells ${Object.keys(ITEMS).join(", ")})` }],
        isError: true,
      };
    return {
      content: [{ type: "text", text: `${item}: ${found.price} EUR` }],
      structuredContent: { item, price: found.price },
    };
  },
);

server.registerTool(
  "in-stock",
  {
    description: "How many of an item the shop has.",
    inputSchema: { item: z.string() },
  },
  async ({ item }) => ({ content: [{ type: "text", text: String(ITEMS[item.toLowerCase()]?.stock ?? 0) }] }),
);

await server.connect(new StdioServerTransport());
