/**
 * The MCP stdio transport of `autograms mcp`: one JSON-RPC message a line on stdin, answers on
 * stdout, with a bound on a line. A line over it is not kept: what has come of it is dropped at
 * once, the rest as it arrives until its end, and the client is answered with a JSON-RPC error
 * (the id is in the part not read: `null`), so a runaway or hostile client costs the server no
 * more than the bound and the next message is read as ever.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

const NEWLINE = 0x0a;
/** JSON-RPC's codes for a line that is not JSON, and for JSON that is no request. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private parts: Buffer[] = [];
  private size = 0;
  /** The line being read went over the bound: the rest of it is dropped. */
  private dropping = false;
  private closed = false;

  /** `check` makes a message of parsed JSON (the SDK's schema), throwing for anything else. */
  constructor(
    private readonly maxBytes: number,
    private readonly check: (value: unknown) => JSONRPCMessage,
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.on("data", this.onData).on("end", this.onEnd).on("error", this.onError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    if (!this.output.write(`${JSON.stringify(message)}\n`))
      await new Promise<void>((resolve) => this.output.once("drain", resolve));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData).off("end", this.onEnd).off("error", this.onError);
    this.parts = [];
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string) => {
    const data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start <= data.length && !this.closed) {
      const newline = data.indexOf(NEWLINE, start);
      const end = newline === -1 ? data.length : newline;
      if (!this.dropping) {
        if (this.size + (end - start) > this.maxBytes) this.tooLong();
        else if (end > start) {
          this.parts.push(data.subarray(start, end));
          this.size += end - start;
        }
      }
      if (newline === -1) return;
      if (this.dropping) this.dropping = false;
      else this.line(Buffer.concat(this.parts, this.size).toString("utf8"));
      this.parts = [];
      this.size = 0;
      start = newline + 1;
    }
  };

  private tooLong(): void {
    this.dropping = true;
    this.parts = [];
    this.size = 0;
    const message = `a message over ${this.maxBytes} bytes (the limit of --max-message-mb) was dropped`;
    process.stderr.write(`(${message})\n`);
    this.refuse(INVALID_REQUEST, message);
  }

  private line(text: string): void {
    const line = text.endsWith("\r") ? text.slice(0, -1) : text;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return this.refuse(PARSE_ERROR, "the line is not JSON");
    }
    let message: JSONRPCMessage;
    try {
      message = this.check(value);
    } catch {
      return this.refuse(INVALID_REQUEST, "the line is not a JSON-RPC message");
    }
    this.onmessage?.(message);
  }

  /** An error answered to a line whose id is not known (JSON-RPC's `id: null`). */
  private refuse(code: number, message: string): void {
    void this.send({ jsonrpc: "2.0", id: null, error: { code, message } } as unknown as JSONRPCMessage);
  }

  private readonly onEnd = () => void this.close();
  private readonly onError = (err: Error) => this.onerror?.(err);
}
