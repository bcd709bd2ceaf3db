/**
 * A turn's commit as both dialects write it: what is written (Committing), what becomes of the
 * lease's run, and why nothing was written.
 */
import { StoreError } from "../errors.js";
import type { Lease, NewTurn, RunWrite } from "../types.js";
import { num, type Row } from "./driver.js";
import { isLive } from "./rows.js";
import type { BatchStatus } from "./run-log.js";
import type { TurnColumns } from "./turn-columns.js";

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
