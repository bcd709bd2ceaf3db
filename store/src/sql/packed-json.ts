import { deflateRawSync, inflateRawSync } from "node:zlib";

/**
 * JSON columns (a turn's delta and trace, a snapshot's memory) are kept deflated: a turn's delta
 * and trace repeat its user message and reply several times over, and deflate stores each
 * repetition as a back-reference, which keeps the bytes written per turn near the turn's own
 * text. `threads export` and the store's API give them back as JSON.
 */
export function packJson(value: unknown): Buffer {
  return packJsonText(JSON.stringify(value));
}

/** `packJson` of a value already serialized: its JSON text. */
export function packJsonText(json: string): Buffer {
  return deflateRawSync(Buffer.from(json, "utf8"));
}

export function unpackJson(packed: unknown): unknown {
  return JSON.parse(inflateRawSync(packed as Uint8Array).toString("utf8"));
}
