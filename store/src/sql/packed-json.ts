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
  return deflateRawSync(json);
}

export function unpackJson(packed: unknown): unknown {
  return JSON.parse(inflateRawSync(packed as Uint8Array).toString("utf8"));
}
