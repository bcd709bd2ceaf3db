/**
 * Runs of every thread, newest first, a page at a time (`Store.listRuns`): one statement, the same
 * for both dialects, over `runs` with its thread (the agent, the lease that says whether it still
 * runs), the turn it committed and, for a run that failed, its last batch of events (where its
 * `run-error` is). Paged by a cursor on (started_at, id), so a page costs what it shows whatever
 * came before it.
 */
import { shownValue } from "@autograms/runtime";
import { StoreError } from "../errors.js";
import { LISTED_RUN_STATUSES, type ListedRun, type ListedRunStatus, type RunPage, type RunQuery } from "../types.js";
import type { StoredTraceEvent, TurnStatus } from "../types.js";
import { num, optNum, optStr, type Row, type Sql } from "./driver.js";
import { unpackJson } from "./packed-json.js";

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1000;

/** The last batch of a failed run's events: its end, the `run-error`, is the last of them. */
const LAST_BATCH = "(SELECT e.event FROM run_events e WHERE e.run_id = r.id ORDER BY e.seq DESC LIMIT 1)";

/**
 * A run stopped (by its client, or the server shutting down) ends with this, as the server writes
 * it (`{ type, code, message }`, in that order).
 */
const STOPPED = `'%"type":"run-error","code":"stopped"%'`;

/** The status a person reads (ListedRunStatus), from the run's row and its thread's lease (`?`: now). */
const SHOWN = `CASE
    WHEN r.status IN ('committed', 'finished') THEN 'committed'
    WHEN r.status = 'running' AND th.lease_token = r.lease_token AND th.lease_expires > ? THEN 'running'
    WHEN r.status = 'running' THEN 'abandoned'
    WHEN ${LAST_BATCH} LIKE ${STOPPED} THEN 'stopped'
    ELSE 'failed' END`;

export async function listRuns(db: Sql, query: RunQuery, now: number): Promise<RunPage> {
  const limit = checkRunQuery(query);
  const inner: string[] = [];
  const params: unknown[] = [now];
  /** A condition of the inner query, with the values of its `?`s. */
  const where = (condition: string, ...values: unknown[]) => {
    inner.push(condition);
    params.push(...values);
  };
  if (query.agent !== undefined) where("th.agent = ?", query.agent);
  if (query.since !== undefined) where("r.started_at >= ?", query.since);
  if (query.until !== undefined) where("r.started_at < ?", query.until);
  if (query.after !== undefined) {
    const [startedAt, id] = cursorOf(query.after);
    where("(r.started_at < ? OR (r.started_at = ? AND r.id < ?))", startedAt, startedAt, id);
  }
  if (query.error !== undefined)
    where(
      `r.status = 'failed' AND LOWER(${LAST_BATCH}) LIKE ? ESCAPE '\\'`,
      `%${query.error.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    );
  const outer: string[] = [];
  if (query.status !== undefined) {
    outer.push(`x.shown IN (${query.status.map(() => "?").join(", ") || "NULL"})`);
    params.push(...query.status);
  }
  params.push(limit + 1);
  const rows = await db.all(
    `SELECT * FROM (
      SELECT r.id, r.thread_id, r.user_text, r.turn, r.follows, r.started_at, r.updated_at, th.agent,
        tu.status AS turn_status, tu.started_at AS turn_started, tu.committed_at${query.withTrace ? ", tu.trace" : ""},
        CASE WHEN r.status = 'failed' THEN ${LAST_BATCH} END AS last_batch, ${SHOWN} AS shown
      FROM runs r JOIN threads th ON th.id = r.thread_id
      LEFT JOIN turns tu ON r.status IN ('committed', 'finished') AND tu.thread_id = r.thread_id AND tu.seq = r.turn
      ${inner.length ? `WHERE ${inner.join(" AND ")}` : ""}
    ) x ${outer.length ? `WHERE ${outer.join(" AND ")}` : ""}
    ORDER BY x.started_at DESC, x.id DESC LIMIT ?`,
    params,
  );
  const runs = rows.slice(0, limit).map((row) => listedRun(row, query.withTrace === true));
  const last = runs[runs.length - 1];
  return { runs, next: rows.length > limit && last ? cursor(last.startedAt, last.id) : null };
}

function listedRun(row: Row, withTrace: boolean): ListedRun {
  const turnStatus = optStr(row.turn_status) as TurnStatus | null;
  return {
    id: String(row.id),
    threadId: String(row.thread_id),
    agent: optStr(row.agent),
    user: optStr(row.user_text),
    turn: num(row.turn),
    follows: optStr(row.follows),
    status: String(row.shown) as ListedRunStatus,
    startedAt: num(row.started_at),
    updatedAt: num(row.updated_at),
    turnStatus,
    turnStartedAt: turnStatus === null ? null : optNum(row.turn_started),
    committedAt: turnStatus === null ? null : optNum(row.committed_at),
    error: errorOf(optStr(row.last_batch)),
    ...(withTrace && {
      trace: row.trace === null || row.trace === undefined ? null : (unpackJson(row.trace) as StoredTraceEvent[]),
    }),
  };
}

/** The `run-error` that ends a batch (a JSON array of events, or one event written before batches). */
function errorOf(batch: string | null): ListedRun["error"] {
  if (batch === null) return null;
  const parsed: unknown = JSON.parse(batch);
  const events = Array.isArray(parsed) ? parsed : [parsed];
  const end = events[events.length - 1] as { type?: unknown; code?: unknown; message?: unknown } | null;
  if (end?.type !== "run-error") return null;
  return { code: String(end.code ?? "internal"), message: String(end.message ?? "") };
}

const cursor = (startedAt: number, id: string) => Buffer.from(JSON.stringify([startedAt, id])).toString("base64url");

function cursorOf(text: string): [number, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, "base64url").toString());
    if (Array.isArray(value) && Number.isSafeInteger(value[0]) && typeof value[1] === "string")
      return [value[0] as number, value[1]];
  } catch {
    // Said below, as any other text that is no cursor.
  }
  throw new StoreError("bad_request", `after: '${text}' is not the 'next' of a page of runs`);
}

/** The page's size; a query the store cannot answer is refused, naming the field. */
function checkRunQuery(query: RunQuery): number {
  const refuse = (field: string, what: string) => new StoreError("bad_request", `${field}: ${what}`);
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw refuse("limit", `a whole number from 1 to ${MAX_LIMIT}, not ${shownValue(query.limit)}`);
  for (const field of ["since", "until"] as const) {
    const value = query[field];
    if (value !== undefined && !Number.isSafeInteger(value))
      throw refuse(field, `a time in milliseconds since 1970, not ${shownValue(value)}`);
  }
  for (const status of query.status ?? [])
    if (!LISTED_RUN_STATUSES.includes(status))
      throw refuse("status", `'${String(status)}' is none of ${LISTED_RUN_STATUSES.join(", ")}`);
  for (const field of ["agent", "error", "after"] as const) {
    const value = query[field];
    if (value !== undefined && typeof value !== "string") throw refuse(field, "a string is expected");
  }
  return limit;
}
