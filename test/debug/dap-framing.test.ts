// DapReader: whole, bounded protocol messages out of any chunking; the first byte that is not the
// Debug Adapter Protocol's framing is refused, whatever follows, before more of it is kept.
import { describe, expect, it } from "vitest";
import {
  DapReader,
  FramingError,
  MAX_HEADER_BYTES,
  MAX_MESSAGE_BYTES,
  type ClientMessage,
} from "../../cli/src/debugger/dap/framing.js";

const frame = (body: string, header = `Content-Length: ${Buffer.byteLength(body)}`) => `${header}\r\n\r\n${body}`;
const request = (seq: number, command = "initialize") =>
  JSON.stringify({ seq, type: "request", command, arguments: {} });

function read(...chunks: (string | Buffer)[]): ClientMessage[] {
  const out: ClientMessage[] = [];
  const reader = new DapReader((m) => out.push(m));
  for (const c of chunks) reader.push(typeof c === "string" ? Buffer.from(c) : c);
  return out;
}

const refusal = (...chunks: (string | Buffer)[]) => {
  try {
    read(...chunks);
  } catch (e) {
    expect(e).toBeInstanceOf(FramingError);
    return (e as Error).message;
  }
  throw new Error("not refused");
};

describe("DapReader", () => {
  it("reads messages however the bytes are split, and several in one chunk", () => {
    const text =
      frame(request(1)) +
      frame(
        request(2, "launch"),
        `Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(request(2, "launch"))}`,
      ) +
      frame('{"seq":3,"type":"request","command":"evaluate","arguments":{"expression":"\\"é😀\\""}}');
    const whole = read(text);
    expect(whole.map((m) => [m.seq, m.command])).toEqual([
      [1, "initialize"],
      [2, "launch"],
      [3, "evaluate"],
    ]);
    const bytes = Buffer.from(text);
    expect(read(...[...bytes].map((b) => Buffer.from([b])))).toEqual(whole);
    expect(read(bytes.subarray(0, 7), bytes.subarray(7, 40), bytes.subarray(40))).toEqual(whole);
  });

  it("refuses an HTTP request at its first bytes, even one that carries a Content-Length", () => {
    for (const method of ["POST", "GET", "PUT", "OPTIONS"]) {
      expect(refusal(`${method} / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 20\r\n\r\n${request(1)}`)).toBe(
        "an HTTP request, not the Debug Adapter Protocol",
      );
    }
  });

  it("refuses bytes without a header, and a header that never ends, keeping at most a header's worth", () => {
    expect(refusal("A".repeat(10))).toBe("bytes that do not start with a Content-Length header");
    expect(refusal("\r\n\r\n")).toBe("bytes that do not start with a Content-Length header");
    expect(refusal(frame(request(1)), "garbage")).toBe("bytes that do not start with a Content-Length header");
    const endless = "Content-Length: 5\r\nX: " + "y".repeat(MAX_HEADER_BYTES);
    expect(refusal(endless)).toBe(`a header over ${MAX_HEADER_BYTES} bytes`);
    // Refused as the header grows past the bound, not when (if ever) it ends.
    const reader = new DapReader(() => undefined);
    reader.push(Buffer.from("Content-Length: 5\r\n"));
    expect(() => {
      for (let i = 0; i < 100; i++) reader.push(Buffer.from("z".repeat(64)));
    }).toThrow(FramingError);
  });

  it("refuses headers it does not know, a missing or repeated Content-Length, and a body over the limit", () => {
    expect(refusal(frame("{}", "Content-Length: 2\r\nX-Other: 1"))).toBe(
      "a header line other than Content-Length and Content-Type",
    );
    expect(refusal(frame("{}", "Content-Type: text/plain"))).toBe("a header without Content-Length");
    expect(refusal(frame("{}", "Content-Length: 2\r\nContent-Length: 2"))).toBe("two Content-Length headers");
    expect(refusal(frame("", `Content-Length: ${MAX_MESSAGE_BYTES + 1}`))).toBe(
      `a message of ${MAX_MESSAGE_BYTES + 1} bytes, over the ${MAX_MESSAGE_BYTES} allowed`,
    );
    expect(refusal(frame("", "Content-Length: 99999999999"))).toBe(
      "a header line other than Content-Length and Content-Type",
    );
  });

  it("refuses a body that is not a protocol request", () => {
    for (const body of [
      "not json",
      "[1, 2]",
      "null",
      '{"seq": 1, "type": "event", "event": "x"}',
      '{"type": "request", "command": "launch"}',
      '{"seq": 1, "type": "request"}',
      "",
    ]) {
      expect(refusal(frame(body)), body).toMatch(/^a body that is not (JSON|a protocol request)$/);
    }
  });
});
