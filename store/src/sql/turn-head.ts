/**
 * The thread's new head as a turn's commit writes it, in both dialects: one update of the thread's
 * row that checks the lease (token, version, not lapsed) and decides, by the one snapshot rule,
 * whether the turn keeps a snapshot of the whole memory.
 */
import type { Store } from "../types.js";
import type { Committing } from "./committing.js";

/** A thread's lease columns as a commit or a release leaves them: the thread free. */
export const LEASE_CLEARED =
  "lease_token = NULL, lease_owner = NULL, lease_message = NULL, lease_user = NULL, lease_since = NULL, lease_expires = NULL";

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
