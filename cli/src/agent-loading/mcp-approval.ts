// A project's `.mcp.json` runs commands on this machine: like editors and desktop clients, the
// command line starts its servers only once the user approved them. Approvals are kept in the
// user's configuration folder, by the file's absolute path and a hash of its servers, so that an
// edit of the file (another command, other arguments) needs approving again. A file named on the
// command line (`--mcp-config FILE`) is approved by being named.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { McpConfig } from "@autograms/runtime/mcp";
import { CliError } from "./cli-error.js";

/** `$XDG_CONFIG_HOME/autograms/approved-mcp.json` (default `~/.config`; on Windows `%APPDATA%`). */
export function approvalsFile(): string {
  const base =
    process.env.XDG_CONFIG_HOME ||
    (process.platform === "win32"
      ? (process.env.APPDATA ?? join(homedir(), "AppData", "Roaming"))
      : join(homedir(), ".config"));
  return join(base, "autograms", "approved-mcp.json");
}

const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted)
    : typeof v === "object" && v !== null
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v;

const fingerprint = (config: McpConfig) =>
  createHash("sha256")
    .update(JSON.stringify(sorted(config.mcpServers)))
    .digest("hex");

function approvals(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as unknown;
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, string>;
  } catch {
    // Said below.
  }
  throw new CliError(`${file}: not the approvals of MCP configurations (a JSON object of paths): fix or delete it`);
}

/**
 * Refuses to go on unless the configuration at `path` is approved as it is now; `approve`
 * (`--approve-mcp`) approves it and remembers that. `servers` are the ones about to start.
 */
export function checkApproved(path: string, config: McpConfig, servers: string[], approve: boolean): void {
  const file = approvalsFile();
  const approved = approvals(file);
  const hash = fingerprint(config);
  if (approved[path] === hash) return;
  if (approve) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ ...approved, [path]: hash }, null, 2)}\n`, { mode: 0o600 });
    return;
  }
  const described = servers.map((name) => {
    const s = config.mcpServers[name]!;
    return `'${name}' (${"url" in s ? s.url : [s.command, ...(s.args ?? [])].join(" ")})`;
  });
  throw new CliError(
    `${path} ${path in approved ? "has changed since it was approved" : "is not approved"}: it would start the MCP server${servers.length === 1 ? "" : "s"} ${described.join(", ")}. Give --approve-mcp to approve it as it is now (remembered in ${file}), or name the file with --mcp-config`,
    2,
  );
}
