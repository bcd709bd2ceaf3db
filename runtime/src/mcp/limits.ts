// The bounds a connection to an MCP server keeps, so that a server that misbehaves (a message
// without end, a stream that never stops, a child that will not stop) costs a failed call, never
// the process.

export interface McpLimits {
  /** The largest single message (a stdio line, an SSE event, a JSON response), in bytes. */
  maxMessageBytes: number;
  /** The most bytes one call's HTTP response may carry, all its events together. */
  maxCallBytes: number;
  /** How long a stdio server (and what it started) has to stop after SIGTERM before SIGKILL, in ms. */
  closeGraceMs: number;
  /** Restarts in a row of a stdio server that keeps dying (or an HTTP session that keeps failing) before it is left down. */
  maxRestarts: number;
  /** The deepest a tool's input or output schema may nest; a deeper tool is left out. */
  maxSchemaDepth: number;
}

export const DEFAULT_MCP_LIMITS: McpLimits = {
  maxMessageBytes: 16 * 1024 * 1024,
  maxCallBytes: 64 * 1024 * 1024,
  closeGraceMs: 1000,
  maxRestarts: 5,
  maxSchemaDepth: 100,
};

export const mebibytes = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;

/** A bound a server went past: the call that was waiting fails with it. */
export class McpLimitError extends Error {
  override name = "McpLimitError";
}
