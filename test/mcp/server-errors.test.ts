// What a user reads when an MCP server is missing, crashes at start, lists a tool it cannot offer,
// or is called with the wrong arguments: one line naming the server and tool, never a stack trace.
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { Agent, ScriptedModel } from "@autograms/runtime";
import { mcpTools } from "@autograms/runtime/mcp";
import { graph, n } from "../runtime/helpers.js";

import { open } from "./support/opened.js";

const RAW = fileURLToPath(new URL("./support/raw-server.mjs", import.meta.url));
const SHOP = fileURLToPath(new URL("./support/shop-server.mjs", import.meta.url));
const raw = (...modes: string[]) => ({ command: process.execPath, args: [RAW, ...modes] });

describe("MCP servers that fail", () => {
  it("says a command that is not installed was not found on PATH", async () => {
    await expect(mcpTools({ mcpServers: { gone: { command: "no-such-mcp-server-xyz" } } })).rejects.toThrow(
      "MCP server 'gone' (no-such-mcp-server-xyz) could not be started: the command 'no-such-mcp-server-xyz' was not found on PATH",
    );
  });

  it("quotes the last line of a server that crashes at start, not its stack trace", async () => {
    const error = await mcpTools({ mcpServers: { db: raw("crash-at-start") } }).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      `MCP server 'db' (${process.execPath} ${RAW} crash-at-start) could not be started: it exited with code 1 (Error: the database is not there)`,
    );
  });

  it("leaves out a tool whose schema nests thousands of levels, naming server and tool, and offers the others", async () => {
    const mcp = await open({ mcpServers: { deep: raw("deep-schema") } });
    expect(mcp.refused).toEqual({ deep: { deep: "its schema nests deeper than 100 levels (maxSchemaDepth)" } });
    expect(Object.keys(mcp.tools).sort()).toEqual(["die", "echo", "flood"]);
    expect(mcp.listed.deep!.map((t) => t.name)).toEqual(["echo", "die", "flood"]);
    expect(await mcp.tools.echo!({ text: "hi" })).toMatch(/ \{"text":"hi"\}$/);
  });

  it("stops a server whose message never ends, at maxMessageBytes, and starts it again for the next call", async () => {
    const mcp = await open({ mcpServers: { raw: raw() } }, { limits: { maxMessageBytes: 1024 * 1024 } });
    await expect(mcp.tools.flood!({})).rejects.toThrow(
      "MCP tool 'flood' of 'raw' failed: it sent a message longer than 1 MiB (maxMessageBytes): it was stopped",
    );
    expect(await mcp.tools.echo!({ text: "again" })).toMatch(/ \{"text":"again"\}$/);
  });

  it("says which argument is wrong and what was expected", async () => {
    const mcp = await open({ mcpServers: { shop: { command: process.execPath, args: [SHOP] } } });
    await expect(mcp.tools.price_of!({ item: 3 })).rejects.toThrow(
      "MCP tool 'price_of' of 'shop': argument 'item' must be string, not number",
    );
    await expect(mcp.tools.price_of!({})).rejects.toThrow("MCP tool 'price_of' of 'shop': argument 'item' is missing");
    expect(await mcp.tools.price_of!({ item: "tea" })).toEqual({ item: "tea", price: 2.5 });
  });

  it("reads the server's own refusal of an argument (a rule only it checks) as the argument and why", async () => {
    const warn = vi.spyOn(console, "warn");
    const mcp = await open({ mcpServers: { shop: { command: process.execPath, args: [SHOP] } } });
    await expect(mcp.tools.subscribe!({ email: "ada@mail.invalid" })).rejects.toThrow(
      "MCP tool 'subscribe' of 'shop' failed: argument 'email': that domain cannot receive mail",
    );
    expect(await mcp.tools.subscribe!({ email: "ada@example.org" })).toBe("subscribed ada@example.org");
    // The schema's `format` is left to the server: no warning about it here.
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it("gives tryTool the argument and what was expected as its error, not the server's dump", async () => {
    const mcp = await open({ mcpServers: { shop: { command: process.execPath, args: [SHOP] } } });
    const g = graph(
      [
        n({
          name: "look",
          action: "code",
          instruction:
            'let said = JSON.stringify([tryTool("price_of", { item: 3 }), tryTool("price_of", { item: "tea" })])',
          transitions: ["say"],
        }),
        n({ name: "say", action: "chat_exact", instruction: "$said", transitions: ["say"] }),
      ],
      {
        tools: {
          price_of: { module: "mcp:shop", export: "price_of" },
          tryTool: { module: "@autograms/runtime", export: "tryTool" },
        },
      },
    );
    const agent = new Agent(g, { model: new ScriptedModel({}), tools: { price_of: mcp.servers.shop!.price_of! } });
    expect(JSON.parse((await agent.reply("")).reply!)).toEqual([
      { ok: false, error: "MCP tool 'price_of' of 'shop': argument 'item' must be string, not number" },
      { ok: true, value: { item: "tea", price: 2.5 } },
    ]);
  });
});
