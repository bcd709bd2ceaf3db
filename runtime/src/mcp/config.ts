// The configuration editors and desktop clients use for MCP servers (`.mcp.json`):
// `{ "mcpServers": { NAME: { "command", "args", "env" } | { "url", "headers" } } }`, checked
// with errors that name the server and the field.

/** Bounds of one server beside the defaults (McpLimits). */
interface ServerBounds {
  /** The largest single message it may send, in bytes (default 16 MiB). */
  maxMessageBytes?: number;
  /** The most bytes one call's HTTP answer may carry (default 64 MiB). */
  maxCallBytes?: number;
  /** How long a stdio server has to stop after SIGTERM before SIGKILL, in ms (default 1000). */
  closeGraceMs?: number;
}

/** The bounds a server of the configuration may set for itself. */
export const SERVER_BOUNDS = ["maxMessageBytes", "maxCallBytes", "closeGraceMs"] as const;

export interface StdioServer extends ServerBounds {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Put before each of the server's tool names (two servers offering one name need it). */
  prefix?: string;
}

export interface HttpServer extends ServerBounds {
  /** A Streamable HTTP endpoint, e.g. "http://localhost:3000/mcp". */
  url: string;
  headers?: Record<string, string>;
  prefix?: string;
}

export type McpServerConfig = StdioServer | HttpServer;

export interface McpConfig {
  mcpServers: Record<string, McpServerConfig>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v: unknown) => isObject(v) && Object.values(v).every((s) => typeof s === "string");

/** The configuration, checked; `where` names it in errors (a file's path). */
export function checkMcpConfig(value: unknown, where = "MCP configuration"): McpConfig {
  const fail = (what: string): never => {
    throw new Error(`${where}: ${what}`);
  };
  if (!isObject(value) || !isObject(value.mcpServers))
    fail('expected { "mcpServers": { NAME: { "command": ... } | { "url": ... } } }');
  const servers = (value as { mcpServers: Record<string, unknown> }).mcpServers;
  for (const [name, server] of Object.entries(servers)) {
    const at = `server '${name}'`;
    if (!isObject(server)) fail(`${at} is not an object`);
    const s = server as Record<string, unknown>;
    if ((typeof s.command === "string") === (typeof s.url === "string"))
      fail(`${at} needs either "command" (a program to start) or "url" (a Streamable HTTP endpoint)`);
    if (s.args !== undefined && !(Array.isArray(s.args) && s.args.every((a) => typeof a === "string")))
      fail(`${at}: "args" must be an array of strings`);
    for (const field of ["env", "headers"])
      if (s[field] !== undefined && !strings(s[field])) fail(`${at}: "${field}" must map names to strings`);
    for (const field of ["cwd", "prefix"])
      if (s[field] !== undefined && typeof s[field] !== "string") fail(`${at}: "${field}" must be a string`);
    for (const field of SERVER_BOUNDS)
      if (s[field] !== undefined && !(Number.isSafeInteger(s[field]) && (s[field] as number) > 0))
        fail(`${at}: "${field}" must be a whole number above 0`);
    if (typeof s.url === "string" && !URL.canParse(s.url)) fail(`${at}: "url" is not a URL: ${s.url}`);
  }
  return value as unknown as McpConfig;
}

/**
 * The name agent code imports a tool under: the server's name where it is an identifier,
 * otherwise each character that cannot be in one replaced by `_` (`get-price` and `shop.price`
 * become `get_price` and `shop_price`), and `_` put first when it starts with a digit.
 */
export function importName(toolName: string): string {
  const name = toolName.replace(/[^\w$]/g, "_");
  return /^\d/.test(name) ? `_${name}` : name;
}
