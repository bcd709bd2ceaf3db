// Reading a `.mcp.json`: its errors name the file and the line:column (of a JSON mistake, or of
// the server a wrong field belongs to), never a character position.
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import type { McpConfig } from "@autograms/runtime/mcp";
import { CliError } from "./cli-error.js";
import { jsonFaultAt, lineColumn } from "./json-fault.js";

/** The configuration in `path`, checked, its servers' relative paths the file's folder (as editors read them). */
export async function readMcpConfig(path: string): Promise<McpConfig> {
  const text = readFileSync(path, "utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const fault = jsonFaultAt(text);
    throw new CliError(`${path}${fault ? `:${fault.line}:${fault.column}: not JSON: ${fault.why}` : ": not JSON"}`);
  }
  const { checkMcpConfig } = await import("@autograms/runtime/mcp");
  let config: McpConfig;
  try {
    config = checkMcpConfig(json, path);
  } catch (err) {
    const message = (err as Error).message;
    // The server named by the error, found by its key in the text.
    const server = /server '([^']*)'/.exec(message)?.[1];
    const key = server === undefined ? -1 : text.indexOf(JSON.stringify(server));
    throw new CliError(key < 0 ? message : message.replace(`${path}: `, `${path}:${lineColumn(text, key)}: `));
  }
  const folder = dirname(path);
  return {
    mcpServers: Object.fromEntries(
      Object.entries(config.mcpServers).map(([name, s]) => [name, "command" in s ? { cwd: folder, ...s } : s]),
    ),
  };
}
