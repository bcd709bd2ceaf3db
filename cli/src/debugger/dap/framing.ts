// The Debug Adapter Protocol's framing, checked: `Content-Length: N` (and at most a Content-Type)
// in a header of bounded size, then a JSON object of at most MAX_MESSAGE_BYTES. Anything else (an
// HTTP request, bytes without a header, a header that never ends, a body too large, a body that is
// not a protocol message) ends the connection before more of it is buffered. The adapter library's
// own reader accepts any header line containing a Content-Length and buffers without bound, copying
// its whole buffer for every chunk.

/** A header longer than this is not a DAP header. */
export const MAX_HEADER_BYTES = 1024;
/** The largest message a client may send (a launch configuration with its user inputs, an expression). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

const HEADER_START = Buffer.from("Content-");
const HEADER_END = Buffer.from("\r\n\r\n");

export class FramingError extends Error {}

export interface ClientMessage {
  seq: number;
  type: "request" | "response";
  command: string;
  [key: string]: unknown;
}

/** Splits what a client sends into messages; `push` throws a FramingError at the first byte that is not DAP. */
export class DapReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** The body length the current header announced, or -1 while reading a header. */
  private contentLength = -1;

  constructor(private readonly onMessage: (message: ClientMessage) => void) {}

  push(data: Buffer): void {
    this.chunks.push(data);
    this.buffered += data.length;
    for (;;) {
      if (this.contentLength < 0) {
        if (this.buffered === 0) return;
        const head = this.peek(Math.min(this.buffered, MAX_HEADER_BYTES + HEADER_END.length));
        const prefix = head.subarray(0, HEADER_START.length);
        if (!HEADER_START.subarray(0, prefix.length).equals(prefix)) throw new FramingError(describeStart(head));
        const end = head.indexOf(HEADER_END);
        if (end < 0) {
          if (this.buffered > MAX_HEADER_BYTES) throw new FramingError(`a header over ${MAX_HEADER_BYTES} bytes`);
          return;
        }
        this.contentLength = parseHeader(head.toString("latin1", 0, end));
        this.take(end + HEADER_END.length);
      }
      if (this.buffered < this.contentLength) return;
      const body = this.take(this.contentLength);
      this.contentLength = -1;
      this.onMessage(parseMessage(body));
    }
  }

  /** The first `n` buffered bytes, joined into the first chunk so later peeks are cheap. */
  private peek(n: number): Buffer {
    if (this.chunks[0]!.length < n) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0]!.subarray(0, n);
  }

  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const rest = all.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    return all.subarray(0, n);
  }
}

function parseHeader(header: string): number {
  let length: number | undefined;
  for (const line of header.split("\r\n")) {
    const m = /^Content-Length: *(\d{1,10})$/i.exec(line);
    if (m) {
      if (length !== undefined) throw new FramingError("two Content-Length headers");
      length = Number(m[1]);
    } else if (!/^Content-Type: *[\x20-\x7e]*$/i.test(line)) {
      throw new FramingError("a header line other than Content-Length and Content-Type");
    }
  }
  if (length === undefined) throw new FramingError("a header without Content-Length");
  if (length > MAX_MESSAGE_BYTES)
    throw new FramingError(`a message of ${length} bytes, over the ${MAX_MESSAGE_BYTES} allowed`);
  return length;
}

function parseMessage(body: Buffer): ClientMessage {
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    throw new FramingError("a body that is not JSON");
  }
  const m = value as Partial<ClientMessage> | null;
  if (
    typeof m !== "object" ||
    m === null ||
    Array.isArray(m) ||
    (m.type !== "request" && m.type !== "response") ||
    typeof m.seq !== "number" ||
    typeof m.command !== "string"
  ) {
    throw new FramingError("a body that is not a protocol request");
  }
  return m as ClientMessage;
}

/** What the first bytes look like, said without echoing them. */
function describeStart(head: Buffer): string {
  return /^[A-Z]{3,10} \S/.test(head.toString("latin1", 0, 16))
    ? "an HTTP request, not the Debug Adapter Protocol"
    : "bytes that do not start with a Content-Length header";
}
