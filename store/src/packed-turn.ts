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

/**
 * Buffers that traces were written in, kept for the next turns of this thread (several turns
 * played at once write one each): together at most SPARE_BYTES, the buffers of four turns of
 * 40,000 steps (16 MiB each). Outside V8's heap: a worker's heap limit does not count them.
 */
const SPARE_BYTES = 64 * 1024 * 1024;
const spares: Buffer[] = [];
let spareBytes = 0;
const FIRST_BYTES = 64 * 1024;
const OPEN = 0x5b; // [
const COMMA = 0x2c;
const CLOSE = 0x5d; // ]

/**
 * A turn's trace packed as it is played, from the JSON text of each event (which the player makes
 * once, to measure the step and to stream it): the events' objects are not kept until the turn
 * ends, nor serialized again for the commit, and their text is written as UTF-8 into one buffer
 * outside V8's heap as it comes (a 10 MB string made at the end, and encoded, took longer than its
 * deflate). The buffer is used again by the thread's next turns: a turn of 40,000 steps writes
 * 10 MB, and buffers made anew each turn (with the copies that joined them) made V8 start a full
 * collection every turn or two for the memory outside its heap. `pack` gives the bytes `packTurn`
 * gives for the same events.
 */
export class TraceText {
  private bytes: Buffer = TraceText.spare();
  private length = 1;
  private packed: Buffer | null = null;

  constructor() {
    this.bytes[0] = OPEN;
  }

  /** The next event, as `JSON.stringify` of what `storedTrace` gives for it. */
  add(json: string): void {
    // At most 3 bytes of UTF-8 for each UTF-16 unit (JSON.stringify escapes a lone surrogate).
    const most = json.length * 3 + 2;
    if (this.bytes.length - this.length < most) this.grow(most);
    if (this.length > 1) this.bytes[this.length++] = COMMA;
    this.length += this.bytes.write(json, this.length, "utf8");
  }

  /** The trace packed (the first call ends the writing: later ones give the same trace) with `delta`. */
  pack(delta: MemoryDelta | null | undefined): PackedTurn {
    if (this.packed === null) {
      if (this.bytes.length === this.length) this.grow(1);
      this.bytes[this.length++] = CLOSE;
      this.packed = packJsonBytes(this.bytes.subarray(0, this.length));
      if (spareBytes + this.bytes.length <= SPARE_BYTES) {
        spares.push(this.bytes);
        spareBytes += this.bytes.length;
      }
      this.bytes = Buffer.alloc(0);
    }
    return { trace: this.packed, delta: delta == null ? null : packJson(delta) };
  }

  private static spare(): Buffer {
    const kept = spares.pop();
    if (!kept) return Buffer.allocUnsafeSlow(FIRST_BYTES);
    spareBytes -= kept.length;
    return kept;
  }

  private grow(room: number): void {
    const bigger = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.length + room));
    this.bytes.copy(bigger, 0, 0, this.length);
    this.bytes = bigger;
  }
}
