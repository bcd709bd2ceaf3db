/**
 * A turn's trace and delta packed where it was played: a server plays its turns in worker threads,
 * and a turn of many steps has a trace of as many objects. Packed there, the trace crosses to the
 * server's thread as bytes (transferred, not cloned), and the commit writes them as they are.
 */
import type { MemoryDelta } from "@autograms/runtime";
import { packJson, packJsonBytes } from "./sql/packed-json.js";
import type { PackedTurn, StoredTraceEvent } from "./types.js";

/** `trace` as `storedTrace` gives it; `delta` null (or none): the commit keeps a snapshot. */
export function packTurn(trace: readonly StoredTraceEvent[], delta: MemoryDelta | null | undefined): PackedTurn {
  return { trace: packJson(trace), delta: delta == null ? null : packJson(delta) };
}

/** Events' JSON texts joined and encoded this many at a time: a long turn holds a few buffers, off V8's heap. */
const JOINED = 256;
const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");

/**
 * A turn's trace packed as it is played, from the JSON text of each event (which the player makes
 * once, to measure the step and to stream it): the events' objects are not kept until the turn
 * ends, nor serialized again for the commit, and their text is kept as UTF-8 bytes (a 10 MB string
 * made at the end, and encoded, took longer than its deflate). `pack` gives the bytes `packTurn`
 * gives for the same events.
 */
export class TraceText {
  private readonly joined: Buffer[] = [OPEN];
  private pending: string[] = [];

  /** The next event, as `JSON.stringify` of what `storedTrace` gives for it. */
  add(json: string): void {
    this.pending.push(json);
    if (this.pending.length === JOINED) this.join();
  }

  pack(delta: MemoryDelta | null | undefined): PackedTurn {
    this.join();
    return {
      trace: packJsonBytes(Buffer.concat([...this.joined, CLOSE])),
      delta: delta == null ? null : packJson(delta),
    };
  }

  private join(): void {
    if (this.pending.length === 0) return;
    if (this.joined.length > 1) this.joined.push(COMMA);
    this.joined.push(Buffer.from(this.pending.join(","), "utf8"));
    this.pending = [];
  }
}
