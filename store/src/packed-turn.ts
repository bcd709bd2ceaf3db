/**
 * A turn's trace and delta packed where it was played: a server plays its turns in worker threads,
 * and a turn of many steps has a trace of as many objects. Packed there, the trace crosses to the
 * server's thread as bytes (transferred, not cloned), and the commit writes them as they are.
 */
import type { MemoryDelta } from "@autograms/runtime";
import { packJson } from "./sql/packed-json.js";
import type { PackedTurn, StoredTraceEvent } from "./types.js";

/** `trace` as `storedTrace` gives it; `delta` null (or none): the commit keeps a snapshot. */
export function packTurn(trace: readonly StoredTraceEvent[], delta: MemoryDelta | null | undefined): PackedTurn {
  return { trace: packJson(trace), delta: delta == null ? null : packJson(delta) };
}
