/**
 * A turn's trace and delta packed where it was played: a server plays its turns in worker threads,
 * and a turn of many steps has a trace of as many objects. Packed there, the trace crosses to the
 * server's thread as bytes (transferred, not cloned), and the commit writes them as they are.
 */
import type { MemoryDelta } from "@autograms/runtime";
import { packJson, packJsonText } from "./sql/packed-json.js";
import type { PackedTurn, StoredTraceEvent } from "./types.js";

/** `trace` as `storedTrace` gives it; `delta` null (or none): the commit keeps a snapshot. */
export function packTurn(trace: readonly StoredTraceEvent[], delta: MemoryDelta | null | undefined): PackedTurn {
  return { trace: packJson(trace), delta: delta == null ? null : packJson(delta) };
}

/** Events' JSON texts joined into one string this many at a time: a long turn holds a few flat strings. */
const JOINED = 256;

/**
 * A turn's trace packed as it is played, from the JSON text of each event (which the player makes
 * once, to measure the step and to stream it): the events' objects are not kept until the turn
 * ends, nor serialized again for the commit. `pack` gives the bytes `packTurn` gives for the same
 * events.
 */
export class TraceText {
  private readonly joined: string[] = [];
  private pending: string[] = [];

  /** The next event, as `JSON.stringify` of what `storedTrace` gives for it. */
  add(json: string): void {
    this.pending.push(json);
    if (this.pending.length === JOINED) this.join();
  }

  pack(delta: MemoryDelta | null | undefined): PackedTurn {
    this.join();
    return { trace: packJsonText(`[${this.joined.join(",")}]`), delta: delta == null ? null : packJson(delta) };
  }

  private join(): void {
    if (this.pending.length === 0) return;
    this.joined.push(this.pending.join(","));
    this.pending = [];
  }
}
