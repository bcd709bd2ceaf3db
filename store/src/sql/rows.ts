/** Database rows to the store's records, the same for both dialects. */
import type { MemoryDelta } from "@autograms/runtime";
import type { Lease, StoredTraceEvent, ThreadInfo, TurnRecord, TurnStatus } from "../types.js";
import { unpackJson } from "./packed-json.js";
import { num, optNum, optStr, type Row } from "./driver.js";

/**
 * Every column of `threads` (migrations.ts), named rather than `threads.*`: on Postgres a statement
 * that lists its columns is prepared once per connection, where one returning `*` is parsed and
 * planned again for every use (postgres/driver.ts). The store's tests check the list against the
 * table, so a migration that adds a column adds it here.
 */
export const THREAD_ROW =
  "threads.id, threads.agent, threads.graph_hash, threads.version, threads.done, threads.first_seq, threads.snap_seq, " +
  "threads.snap_bytes, threads.created_at, threads.updated_at, threads.parent_id, threads.parent_seq, threads.lease_token, " +
  "threads.lease_owner, threads.lease_message, threads.lease_user, threads.lease_since, threads.lease_expires, " +
  "threads.queue_tail, threads.title, threads.memory_checksum, threads.settings";

/** The lease's columns, in the order of `leaseValues`. */
export const LEASE_NAMES = "lease_token, lease_owner, lease_message, lease_user, lease_since, lease_expires";
/** The lease's columns as taking it writes them (`leaseValues`). */
export const LEASE_COLUMNS = LEASE_NAMES.replaceAll(",", " = ?,") + " = ?";

export const leaseValues = (lease: Lease, user: string | null, now: number) => [
  lease.token,
  lease.owner,
  lease.messageId,
  user,
  now,
  now + lease.ttlMs,
];

/** The lease's columns as a commit or a release leaves them: the thread free. */
export const LEASE_CLEARED = LEASE_NAMES.replaceAll(",", " = NULL,") + " = NULL";

/** A run holds the thread: a lease whose time has not run out (a dead process's lease lapses). */
export function isLive(row: Row, now: number): boolean {
  return row.lease_token !== null && row.lease_token !== undefined && num(row.lease_expires) > now;
}

/** The longest title made from a first message; a title given by hand may be longer (TITLE_MAX). */
const DERIVED_TITLE = 80;

/** A title given by hand, else the first line of the thread's first user message, cut short. */
function titleOf(row: Row): string | null {
  const given = optStr(row.title);
  if (given !== null) return given;
  const line = optStr(row.first_user)?.trim().split(/\r?\n/, 1)[0];
  if (!line) return null;
  return line.length > DERIVED_TITLE ? `${line.slice(0, DERIVED_TITLE - 1)}\u2026` : line;
}

export function threadInfo(row: Row, now: number): ThreadInfo {
  const parent = optStr(row.parent_id);
  return {
    id: String(row.id),
    title: titleOf(row),
    agent: optStr(row.agent),
    graphHash: optStr(row.graph_hash),
    version: num(row.version),
    done: num(row.done) === 1,
    firstSeq: num(row.first_seq),
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
    forkedFrom: parent === null ? null : { id: parent, turn: num(row.parent_seq) },
    running: isLive(row, now)
      ? {
          owner: String(row.lease_owner),
          messageId: optStr(row.lease_message),
          since: num(row.lease_since),
          expiresAt: num(row.lease_expires),
        }
      : null,
  };
}

export function turnRecord(row: Row): TurnRecord {
  return {
    seq: num(row.seq),
    messageId: optStr(row.message_id),
    user: optStr(row.user_text),
    reply: optStr(row.reply),
    status: String(row.status) as TurnStatus,
    delta: row.delta === null || row.delta === undefined ? null : (unpackJson(row.delta) as MemoryDelta),
    trace: unpackJson(row.trace) as StoredTraceEvent[],
    startedAt: num(row.started_at),
    committedAt: optNum(row.committed_at) ?? 0,
  };
}

/** One line naming the run in progress. */
export function busyMessage(row: Row, now: number): string {
  const message = optStr(row.lease_message);
  const seconds = Math.max(0, Math.round((now - num(row.lease_since)) / 1000));
  return `thread ${String(row.id)} is busy: a run${message === null ? "" : ` of message ${message}`} by ${String(row.lease_owner)} is in progress (started ${seconds} s ago)`;
}
