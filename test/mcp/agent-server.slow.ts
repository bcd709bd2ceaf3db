// `autograms mcp`: an agent served over MCP, read with the SDK's own Client, over stdio (the
// command started as a client starts an MCP server) and over Streamable HTTP.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { bin, cliTestFolder, root } from "../cli/support/run-cli.js";

const dir = cliTestFolder("autograms-mcp-server-");
const clients: Client[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const child of children.splice(0)) child.kill("SIGTERM");
});

async function stdioClient(args: string[]): Promise<Client> {
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [bin, "mcp", ...args], cwd: root, stderr: "pipe" }),
  );
  clients.push(client);
  return client;
}

describe("autograms mcp", () => {
  it("offers a chat tool whose threads go on across calls, stored as chat --store stores them", async () => {
    const store = `sqlite:${join(dir(), "threads.db")}`;
    const client = await stdioClient(["test/cli/fixtures/greeter/agent.ts", "--offline", "--store", store]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["chat"]);
    expect(tools[0]!.inputSchema).toEqual({
      type: "object",
      properties: { message: { type: "string" }, thread: { type: "string" } },
      required: ["message"],
    });
    const first = await client.callTool({ name: "chat", arguments: { message: "hello" } });
    const { reply, thread } = first.structuredContent as { reply: string; thread: string };
    expect(reply).toMatch(/\(offline\)/);
    expect(first.content).toEqual([{ type: "text", text: reply }]);
    const second = await client.callTool({ name: "chat", arguments: { message: "again", thread } });
    expect((second.structuredContent as { thread: string }).thread).toBe(thread);
    // The thread is in the store, with the opening turn and the two messages.
    const { openStore } = await import("@autograms/store");
    const opened = await openStore(store);
    try {
      expect((await opened.load(thread)).memory?.turn).toBe(3);
    } finally {
      await opened.close();
    }
  }, 60_000);

  it("offers each function of the agent as a tool with its parameters, over Streamable HTTP", async () => {
    const child = spawn(
      process.execPath,
      [bin, "mcp", "samples/algorithms/agent.ts", "--http", "0", "--store", `sqlite:${join(dir(), "fn.db")}`],
      { cwd: root },
    );
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        out += d;
        const m = /MCP server on (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on("exit", (code) => reject(new Error(`autograms mcp exited ${code}`)));
    });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    clients.push(client);
    const { tools } = await client.listTools();
    const fib = tools.find((t) => t.name === "fibonacci");
    expect(fib?.inputSchema).toMatchObject({ type: "object", properties: { n: {} }, required: ["n"] });
    const result = await client.callTool({ name: "fibonacci", arguments: { n: 10 } });
    expect(result.structuredContent).toEqual({ value: 55 });
    const wrong = await client.callTool({ name: "fibonacci", arguments: {} });
    expect(wrong.isError).toBe(true);
  }, 60_000);
});
