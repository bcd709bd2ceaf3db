// The command line with an agent whose tools come from an MCP server (samples/shop): the server
// started from the .mcp.json beside the agent, its tools called from the agent's code and by the
// model; the declarations `autograms mcp-types` writes; what a wrong configuration says.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { autogramsInProcess, cliTestFolder, replies, root } from "../cli/support/run-cli.js";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";

const dir = cliTestFolder("autograms-mcp-cli-");
const agent = "samples/shop/agent.ts";
const RAW = fileURLToPath(new URL("./support/raw-server.mjs", import.meta.url));
const SAMPLE_SERVER = join(root, "samples/shop/server.mjs");
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

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
    const r = await autogramsInProcess(
      ["chat", agent, "--base-url", server.baseURL, "--model", "test-model", "--approve-mcp"],
      { input: "Any cake?\n" },
    );
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
      `autograms chat: ${config}:1:16: server 'shop' needs either "command" (a program to start) or "url" (a Streamable HTTP endpoint)\n`,
    );
  });

  it("says where a .mcp.json is not JSON, as line:column, for chat and mcp-types", async () => {
    const config = join(dir(), "broken.json");
    const text = '{\n  "mcpServers": {\n    "shop": { "command": "node", }\n  }\n}\n';
    writeFileSync(config, text);
    const column = text.split("\n")[2]!.indexOf("}") + 1;
    const expected = `${config}:3:${column}: not JSON: a trailing comma before '}'\n`;
    const chat = await autogramsInProcess(["chat", agent, "--offline", "--mcp-config", config]);
    expect(chat.stderr).toBe(`autograms chat: ${expected}`);
    const types = await autogramsInProcess(["mcp-types", "--mcp-config", config]);
    expect(types.stderr).toBe(`autograms mcp-types: ${expected}`);
  });

  it("says a server's command was not found on PATH, naming the file, and quotes a crash at start in one line", async () => {
    const config = join(dir(), "servers.json");
    writeFileSync(config, JSON.stringify({ mcpServers: { shop: { command: "no-such-mcp-server-xyz" } } }));
    const missing = await autogramsInProcess(["chat", agent, "--offline", "--mcp-config", config]);
    expect(missing.stderr).toBe(
      `autograms chat: ${config}: MCP server 'shop' (no-such-mcp-server-xyz) could not be started: the command 'no-such-mcp-server-xyz' was not found on PATH\n`,
    );
    const crashing = [process.execPath, RAW, "crash-at-start"];
    writeFileSync(config, JSON.stringify({ mcpServers: { shop: { command: crashing[0], args: crashing.slice(1) } } }));
    const crashed = await autogramsInProcess(["chat", agent, "--offline", "--mcp-config", config]);
    expect(crashed.stderr).toBe(
      `autograms chat: ${config}: MCP server 'shop' (${crashing.join(" ")}) could not be started: it exited with code 1 (Error: the database is not there)\n`,
    );
  });
});

describe("a .mcp.json beside the agent", () => {
  /** A project: the shop's agent, and a .mcp.json whose server leaves started.txt when it starts. */
  function project(): { folder: string; config: string; started: string } {
    const folder = mkdtempSync(join(dir(), "project-"));
    for (const f of ["agent.ts", "mcp-tools.d.ts"]) copyFileSync(join(root, "samples/shop", f), join(folder, f));
    const config = join(folder, ".mcp.json");
    writeFileSync(config, JSON.stringify(shopConfig()));
    return { folder, config, started: join(folder, "started.txt") };
  }
  const shopConfig = (env: Record<string, string> = {}) => ({
    mcpServers: {
      shop: {
        command: process.execPath,
        args: ["-e", "require('fs').writeFileSync('started.txt', ''); import(process.argv[1])", SAMPLE_SERVER],
        env,
      },
    },
  });

  it("starts its servers only once approved, and again after an edit only once approved again", async () => {
    const { folder, config, started } = project();
    const chat = (...flags: string[]) => autogramsInProcess(["chat", join(folder, "agent.ts"), "--offline", ...flags]);
    const refused = await chat();
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^autograms chat: ${escape(config)} is not approved: it would start the MCP server 'shop' \\(.*\\)\\. Give --approve-mcp to approve it as it is now \\(remembered in .*approved-mcp\\.json\\), or name the file with --mcp-config\\n$`,
      ),
    );
    expect(existsSync(started)).toBe(false);

    const approved = await chat("--approve-mcp");
    expect(approved.code, approved.stderr).toBe(0);
    expect(replies(approved.stdout)[0]).toMatch(/^Welcome! Tea is 2\.5 EUR today/);
    expect(existsSync(started)).toBe(true);
    rmSync(started);
    // Remembered.
    expect((await chat()).code).toBe(0);
    expect(existsSync(started)).toBe(true);
    rmSync(started);

    writeFileSync(config, JSON.stringify(shopConfig({ SHOP_DB: "other" })));
    const edited = await chat();
    expect(edited.code).toBe(2);
    expect(edited.stderr).toContain(
      `${config} has changed since it was approved: it would start the MCP server 'shop'`,
    );
    expect(existsSync(started)).toBe(false);
    // A file named on the command line is approved by being named.
    expect((await chat("--mcp-config", config)).code).toBe(0);
    expect(existsSync(started)).toBe(true);
  });

  it("is approved for mcp-types too, which starts only the servers the agent imports from", async () => {
    const { folder, config, started } = project();
    const both = { mcpServers: { ...shopConfig().mcpServers, unused: { command: "no-such-mcp-server-xyz" } } };
    writeFileSync(config, JSON.stringify(both));
    const refused = await autogramsInProcess(["mcp-types"], { cwd: folder });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${config} is not approved: it would start the MCP servers 'shop'`);
    expect(existsSync(started)).toBe(false);
    // With the agent, only 'shop' starts (the unused one would fail: its command is nowhere).
    const r = await autogramsInProcess(["mcp-types", "agent.ts", "--approve-mcp"], { cwd: folder });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(root, "samples/shop/mcp-tools.d.ts"), "utf8"));
  });
});
