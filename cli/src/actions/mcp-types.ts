import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { checkMcpConfig, mcpDeclarations, mcpTools } from "@autograms/runtime/mcp";
import { CliError } from "../agent-loading/cli-error.js";
import { reporting } from "../agent-loading/report-error.js";

export interface McpTypesFlags {
  mcpConfig: string;
  out?: string;
}

export function mcpTypesCommand(flags: McpTypesFlags): Promise<void> {
  return reporting("mcp-types", () => write(flags));
}

async function write(flags: McpTypesFlags): Promise<void> {
  const path = resolve(flags.mcpConfig);
  if (!existsSync(path)) throw new CliError(`--mcp-config: no file ${path}`, 2);
  let config;
  try {
    config = checkMcpConfig(JSON.parse(readFileSync(path, "utf8")), path);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  // Relative paths in a server's command are the configuration's, as when an agent starts it.
  const servers = Object.fromEntries(
    Object.entries(config.mcpServers).map(([name, s]) => [name, "command" in s ? { cwd: dirname(path), ...s } : s]),
  );
  let opened;
  try {
    opened = await mcpTools({ mcpServers: servers });
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  try {
    const text = mcpDeclarations(opened.listed);
    if (flags.out === undefined) process.stdout.write(text);
    else writeFileSync(flags.out, text);
  } finally {
    await opened.close();
  }
}
