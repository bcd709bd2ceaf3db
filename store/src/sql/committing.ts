/**
 * A turn's commit as both dialects write it: what is written (Committing; the trace and delta as
 * the turn's row keeps them, TurnColumns, and as its record gives them back), the thread's new head
 * (one update of its row that checks the lease and decides, by the one snapshot rule, whether the
 * turn keeps a snapshot of the whole memory), what becomes of the lease's run, and why nothing was
 * written.
 */
import { storedTrace, type MemoryDelta } from "@autograms/runtime";
import { StoreError } from "../errors.js";
import type { Lease, NewTurn, RunWrite, Store, StoredTraceEvent, TurnRecord } from "../types.js";
import { packJson, unpackJson } from "./packed-json.js";
import { num, type Row } from "./driver.js";
import { isLive, LEASE_CLEARED } from "./rows.js";
import type { BatchStatus } from "./run-log.js";

/**
 * A turn's commit as a dialect writes it (SqlStore.writeTurn), all or nothing: the lease checked
 * on the thread's row (token, version, not lapsed), the turn replaced if `turn.replaces`, the turn,
 * its run's batch of events (`from`: its first number) ending with `runStatus` and going on with
 * `runTurn`, the thread's new head (the lease kept if `turn.continues`, else cleared), a snapshot
 * of the memory where SNAPSHOT_DUE says so; with no run, the run its lease may have recorded
 * (events written apart) moved on as `leaseRun` says.
 */
export interface Committing extends RunAfter {
  lease: Lease;
  turn: NewTurn;
  columns: TurnColumns;
  seq: number;
  from: number | null;
}

/** What a commit does to the run of its lease. */
interface RunAfter {
  /** With the run's batch (NewTurn.run): its end, or `committed` (its last events come next); undefined: still running. */
  runStatus: BatchStatus | undefined;
  /** With the run's batch: it goes on with this turn (the lease is kept for it). */
  runTurn: number | undefined;
  /** Without a batch: the update of the run the lease recorded, if any. */
  leaseRun: { sql: string; params: (lease: Lease, now: number) => unknown[] } | null;
}

/**
 * The run goes on with the next turn on the same lease (still running, for that turn), or it
 * writes its last events next (committed), unless the batch written with the turn ends it.
 */
export function runAfter(turn: NewTurn, seq: number): RunAfter {
  const { run } = turn;
  if (run) {
    if (run.end) return { runStatus: run.end, runTurn: undefined, leaseRun: null };
    return turn.continues
      ? { runStatus: undefined, runTurn: seq + 1, leaseRun: null }
      : { runStatus: "committed", runTurn: undefined, leaseRun: null };
  }
  const leaseRun = turn.continues
    ? {
        sql: "UPDATE runs SET turn = ?, updated_at = ? WHERE thread_id = ? AND lease_token = ? AND status = 'running'",
        params: (lease: Lease, now: number) => [seq + 1, now, lease.threadId, lease.token],
      }
    : {
        sql: "UPDATE runs SET status = 'committed', updated_at = ? WHERE thread_id = ? AND lease_token = ? AND status = 'running'",
        params: (lease: Lease, now: number) => [now, lease.threadId, lease.token],
      };
  return { runStatus: undefined, runTurn: undefined, leaseRun };
}

/** Why a commit under `lease` cannot be made on the thread's row as it is; null: it can. */
export function leaseProblem(row: Row | undefined, lease: Lease, now: number): StoreError | null {
  if (!row)
    return new StoreError(
      "lease_lost",
      `thread ${lease.threadId} was deleted while this turn ran; nothing was committed`,
    );
  if (row.lease_token !== lease.token || num(row.version) !== lease.version)
    return new StoreError(
      "lease_lost",
      `thread ${lease.threadId} was taken over while this turn ran (${row.lease_token === null ? "its lease expired" : `now run by ${String(row.lease_owner)}`}); nothing was committed`,
    );
  if (!isLive(row, now)) return lapsed(lease);
  return null;
}

export function lapsed(lease: Lease): StoreError {
  return new StoreError(
    "lease_lost",
    `the lease on thread ${lease.threadId} lapsed before this turn was committed (not renewed for ${lease.ttlMs} ms: the process stalled); nothing was committed`,
  );
}

/** The run's events were refused: another writer ended the run (it thought this one dead). */
export function runEnded(run: RunWrite, lease: Lease): StoreError {
  return new StoreError(
    "lease_lost",
    `run ${run.runId} on thread ${lease.threadId} was ended by another process while its turn ran; nothing was committed`,
  );
}

/**
 * Whether the turn keeps a snapshot, on the thread's row as it was before the commit: a turn
 * without a delta, a thread's first (no snapshot yet), `snapshotEvery` turns since the last one,
 * or `snapshotBytes` of deltas since.
 */
function snapshotDue(c: Committing, options: Store["options"]): { sql: string; params: unknown[] } {
  return {
    sql: "(CAST(? AS INTEGER) = 1 OR snap_seq = 0 OR CAST(? AS INTEGER) - snap_seq >= CAST(? AS INTEGER) OR snap_bytes + CAST(? AS BIGINT) >= CAST(? AS BIGINT))",
    params: [
      c.columns.delta === null ? 1 : 0,
      c.seq,
      options.snapshotEvery,
      c.columns.delta?.length ?? 0,
      options.snapshotBytes,
    ],
  };
}

/**
 * The update, RETURNING the row's `snap_seq` (the turn's own where it keeps a snapshot); no row
 * where the lease no longer holds, nor (`unlessDue`) where a snapshot is due.
 */
export function headUpdate(
  c: Committing,
  options: Store["options"],
  now: number,
  unlessDue = false,
): { sql: string; params: unknown[] } {
  const { lease, turn, seq } = c;
  const due = snapshotDue(c, options);
  return {
    sql: `UPDATE threads SET version = CAST(? AS INTEGER), agent = ?, graph_hash = ?, memory_checksum = ?, done = CAST(? AS INTEGER),
           snap_seq = CASE WHEN ${due.sql} THEN CAST(? AS INTEGER) ELSE snap_seq END,
           snap_bytes = CASE WHEN ${due.sql} THEN 0 ELSE snap_bytes + CAST(? AS BIGINT) END,
           updated_at = CAST(? AS BIGINT)${turn.continues ? "" : `, ${LEASE_CLEARED}`}
         WHERE id = ? AND lease_token = ? AND version = CAST(? AS INTEGER) AND lease_expires > CAST(? AS BIGINT)${unlessDue ? ` AND NOT ${due.sql}` : ""}
         RETURNING snap_seq`,
    params: [
      seq,
      turn.memory.graph.agent,
      turn.memory.graph.hash,
      turn.memory.checksum,
      turn.memory.done,
      ...due.params,
      seq,
      ...due.params,
      c.columns.delta?.length ?? 0,
      now,
      lease.threadId,
      lease.token,
      lease.version,
      now,
      ...(unlessDue ? due.params : []),
    ],
  };
}

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
