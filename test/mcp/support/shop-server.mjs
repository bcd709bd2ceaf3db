// A real MCP server written with @modelcontextprotocol/sdk, for the tests: over stdio when run
// as a program (`node shop-server.mjs [--prefix-tools X]`), over Streamable HTTP through
// startHttpShop(). Its tools: price_of (structured content), get-price (a name that is no
// identifier), subscribe (an argument whose format only the server checks), greet (text), out_of_stock (an error result), hang (answers only when the call is
// cancelled), crash (the process dies).
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const PRICES = { tea: 2.5, cake: 3 };

export function shopServer(calls = []) {
  const server = new McpServer({ name: "shop", version: "1.0.0" });
  server.registerTool(
    "price_of",
    {
      description: "The price of an item, in euros.",
      inputSchema: { item: z.string().describe("what to price") },
      outputSchema: { item: z.string(), price: z.number() },
    },
    async ({ item }) => {
      calls.push(["price_of", item]);
      const price = PRICES[item] ?? 0;
      return { content: [{ type: "text", text: `${item}: ${price} EUR` }], structuredContent: { item, price } };
    },
  );
  server.registerTool(
    "get-price",
    { description: "The price, as text.", inputSchema: { item: z.string() } },
    async ({ item }) => ({ content: [{ type: "text", text: `${PRICES[item] ?? 0} EUR` }] }),
  );
  // Its address has a JSON Schema `format`, and a rule the server alone checks (no schema says it).
  server.registerTool(
    "subscribe",
    {
      description: "Subscribes an address.",
      inputSchema: { email: z.email().refine((s) => !s.endsWith(".invalid"), "that domain cannot receive mail") },
    },
    async ({ email }) => ({ content: [{ type: "text", text: `subscribed ${email}` }] }),
  );
  server.registerTool("greet", { description: "Says hello.", inputSchema: { name: z.string() } }, async ({ name }) => ({
    content: [{ type: "text", text: `Hello, ${name}!` }],
  }));
  server.registerTool("out_of_stock", { description: "Always fails.", inputSchema: {} }, async () => ({
    content: [{ type: "text", text: "no more cake" }],
    isError: true,
  }));
  server.registerTool(
    "hang",
    { description: "Answers only when cancelled.", inputSchema: {} },
    async (_args, extra) => {
      await new Promise((resolve) => extra.signal.addEventListener("abort", resolve, { once: true }));
      // A test that watches for the cancellation names a file.
      if (process.env.SHOP_CANCEL_FILE) appendFileSync(process.env.SHOP_CANCEL_FILE, "cancelled\n");
      return { content: [{ type: "text", text: "cancelled" }] };
    },
  );
  server.registerTool("crash", { description: "Ends the server's process.", inputSchema: {} }, async () =>
    process.exit(3),
  );
  return server;
}

/** The same tools over Streamable HTTP (stateless: one server and transport per request). */
export async function startHttpShop() {
  const calls = [];
  const http = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const server = shopServer(calls);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, raw ? JSON.parse(raw) : undefined);
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${http.address().port}/mcp`,
    calls,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(resolve);
      }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // A test that counts the server's starts names a file: each start adds its process id.
  if (process.env.SHOP_PID_FILE) appendFileSync(process.env.SHOP_PID_FILE, `${process.pid}\n`);
  await shopServer().connect(new StdioServerTransport());
}
