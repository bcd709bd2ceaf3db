// What a test of MCP tools opens (connections, servers) is closed after each test.
import { afterEach } from "vitest";
import { mcpTools, type McpTools } from "@autograms/runtime/mcp";

export const opened: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.close()));
});

export async function open(...args: Parameters<typeof mcpTools>): Promise<McpTools> {
  const tools = await mcpTools(...args);
  opened.push(tools);
  return tools;
}
