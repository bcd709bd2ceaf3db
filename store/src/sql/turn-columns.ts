/** A committed turn's trace and delta: as its row keeps them, and as its record gives them back. */
import { storedTrace, type MemoryDelta } from "@autograms/runtime";
import { StoreError } from "../errors.js";
import type { NewTurn, StoredTraceEvent, TurnRecord } from "../types.js";
import { packJson, unpackJson } from "./packed-json.js";

export interface TurnColumns {
  trace: Buffer;
  delta: Buffer | null;
  /** The trace as stored, when it was given as objects. */
  stored: StoredTraceEvent[] | null;
}

/** The turn's trace and delta packed here, or as given packed (`NewTurn.packed`). */
export function turnColumns(turn: NewTurn): TurnColumns {
  if (!turn.packed) {
    const stored = storedTrace(turn.trace ?? []);
    return { trace: packJson(stored), delta: turn.delta === undefined ? null : packJson(turn.delta), stored };
  }
  if (turn.trace !== undefined || turn.delta !== undefined)
    throw new StoreError("bad_request", "a turn's trace and delta are given either packed or not, not both");
  const { trace, delta } = turn.packed;
  return { trace: bytes(trace), delta: delta && bytes(delta), stored: null };
}

/** The drivers bind a Buffer as a blob: a view of the same memory, not a copy. */
function bytes(packed: Uint8Array): Buffer {
  return Buffer.isBuffer(packed) ? packed : Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
}

/**
 * The committed turn's record: its trace and delta as given, or, given packed, unpacked only if
 * the caller reads them (a server's commit does not).
 */
export function committedRecord(
  row: Omit<TurnRecord, "trace" | "delta">,
  turn: NewTurn,
  columns: TurnColumns,
): TurnRecord {
  if (columns.stored) return { ...row, delta: turn.delta ?? null, trace: columns.stored };
  const unpacked: { trace?: StoredTraceEvent[]; delta?: MemoryDelta | null } = {};
  return Object.defineProperties(row as TurnRecord, {
    trace: { enumerable: true, get: () => (unpacked.trace ??= unpackJson(columns.trace) as StoredTraceEvent[]) },
    delta: {
      enumerable: true,
      get: () => {
        if (!("delta" in unpacked)) unpacked.delta = columns.delta && (unpackJson(columns.delta) as MemoryDelta);
        return unpacked.delta;
      },
    },
  });
}
