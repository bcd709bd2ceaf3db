// The command line with an agent whose tools come from an MCP server (samples/shop): the server
// started from the .mcp.json beside the agent, its tools called from the agent's code and by the
// model; the declarations `autograms mcp-types` writes; what a wrong configuration says.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { autogramsInProcess, cliTestFolder, replies, root } from "../cli/support/run-cli.js";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";

const dir = cliTestFolder("autograms-mcp-cli-");
const agent = "samples/shop/agent.ts";

let server: OpenAIServer;
beforeEach(async () => {
  server = await startOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

describe("an agent with MCP tools on the command line", () => {
  it("starts the server of .mcp.json and calls its tools from the agent's code and for the model", async () => {
    server.enqueue(
      { toolCalls: [{ id: "c1", name: "in-stock", arguments: { item: "cake" } }] },
      { text: "Sorry, we are out of cake." },
    );
    const r = await autogramsInProcess(["chat", agent, "--base-url", server.baseURL, "--model", "test-model"], {
      input: "Any cake?\n",
    });
    expect(r.code, r.stderr).toBe(0);
    expect(replies(r.stdout)).toEqual([
      "Welcome! Tea is 2.5 EUR today. What would you like?",
      "Sorry, we are out of cake.",
    ]);
    const [first, second] = server.completions.map((c) => c.body);
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(["price_of", "in-stock"]);
    expect(first.tools[0].function).toMatchObject({
      description: "The price of an item of the shop, in euros.",
      parameters: { properties: { item: { type: "string" } }, required: ["item"] },
    });
    expect(second.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "c1", content: "0" });
  });

  it("writes the declarations of the servers' tools", async () => {
    const out = join(dir(), "mcp-tools.d.ts");
    const r = await autogramsInProcess(["mcp-types", "--mcp-config", "samples/shop/.mcp.json", "-o", out]);
    expect(r.code, r.stderr).toBe(0);
    // The sample's own declarations are what the command writes.
    expect(readFileSync(out, "utf8")).toBe(readFileSync(join(root, "samples/shop/mcp-tools.d.ts"), "utf8"));
  });

  it("says what is missing in the configuration", async () => {
    const config = join(dir(), "other.json");
    writeFileSync(config, JSON.stringify({ mcpServers: { other: { command: "node", args: ["-e", "0"] } } }));
    const r = await autogramsInProcess(["chat", agent, "--offline", "--mcp-config", config]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `autograms chat: tool 'in_stock' is imported from 'mcp:shop', but ${config} has no server 'shop' (it has other)\n`,
    );
    const none = await autogramsInProcess(["chat", agent, "--offline", "--mcp-config", join(dir(), "none.json")]);
    expect(none.stderr).toContain(`there is no file ${join(dir(), "none.json")}: write one, or give --mcp-config FILE`);
    writeFileSync(config, JSON.stringify({ mcpServers: { shop: { url: 3 } } }));
    const bad = await autogramsInProcess(["chat", agent, "--offline", "--mcp-config", config]);
    expect(bad.stderr).toBe(
      `autograms chat: ${config}: server 'shop' needs either "command" (a program to start) or "url" (a Streamable HTTP endpoint)\n`,
    );
  });
});
