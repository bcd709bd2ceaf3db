import { deflateRawSync, inflateRawSync } from "node:zlib";

/**
 * JSON columns (a turn's delta and trace, a snapshot's memory) are kept deflated: a turn's delta
 * and trace repeat its user message and reply several times over, and deflate stores each
 * repetition as a back-reference, which keeps the bytes written per turn near the turn's own
 * text. `threads export` and the store's API give them back as JSON.
 */
export function packJson(value: unknown): Buffer {
  return packJsonBytes(Buffer.from(JSON.stringify(value), "utf8"));
}

/** `packJson` of a value already serialized: its JSON text, in UTF-8. */
export function packJsonBytes(json: Uint8Array): Buffer {
  // A window no larger than the text (a match can reach back no further) and a hash table to match:
  // zlib's state for a row of a few hundred bytes is a few KiB, not its default 256 KiB.
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(json.byteLength + MIN_LOOKAHEAD))));
  return deflateRawSync(json, {
    chunkSize: chunkFor(json.byteLength / 4),
    windowBits,
    memLevel: Math.min(8, windowBits - 7),
  });
}

/** zlib keeps this many bytes of lookahead beyond its window (MIN_LOOKAHEAD in its deflate.h). */
const MIN_LOOKAHEAD = 262;

export function unpackJson(packed: unknown): unknown {
  const bytes = packed as Uint8Array;
  return JSON.parse(inflateRawSync(bytes, { chunkSize: chunkFor(bytes.byteLength * 4) }).toString("utf8"));
}

/**
 * The output buffer zlib fills, sized for what comes out (more is joined from further buffers).
 * Its default, 16 KiB, is an ArrayBuffer of its own per call: for a turn's row of a few hundred
 * bytes that garbage outside V8's heap made V8 collect for "external memory pressure" every few
 * hundred calls, which in a server with a large heap cost deflate several times its own work
 * (the server's thread spent 100 us a call on a turn's rows, 56 with this, 41 with the smaller
 * state above; 13 in a loop alone). The bytes written are the same whatever the size.
 */
function chunkFor(expected: number): number {
  return Math.min(64 * 1024, Math.max(256, 2 ** Math.ceil(Math.log2(Math.max(1, expected)))));
}
