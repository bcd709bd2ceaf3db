/**
 * Runs and their events (the `runs` and `run_events` tables): the store's RunLogStore, what both
 * dialects share. How a batch of events is written is each dialect's (`writeBatch`, in
 * sqlite/store.ts and postgres/store.ts). A run's events are appended in batches, each batch one
 * transaction that checks the numbering
 * goes on from the run's last event, so two writers (the run's process, and a reader settling an
 * abandoned run) never interleave; every append wakes the run's watchers in all processes. Appends
 * do not wait for the disk: a crash of the machine may lose a run's last events (its turn, if
 * committed, is kept), and a turn's cost stays near what it is without them.
 */
import { randomUUID } from "node:crypto";
import { StoreError } from "../errors.js";
import { runKey, threadKey } from "../arguments.js";
import type {
  Lease,
  NewRun,
  RunEventRecord,
  RunLogStore,
  RunPage,
  RunQuery,
  RunRecord,
  RunStatus,
  Store,
} from "../types.js";
import { first, num, optStr, type Row, type Sql, type SqlDriver } from "./driver.js";
import { ExperimentTable } from "./experiments.js";
import { isLive } from "./rows.js";
import { listRuns } from "./run-list.js";

/**
 * A batch of events is one row: its first number (`seq`), its last (`last_seq`) and the events as
 * one JSON array (`event`), so a turn's events cost the database one row and one index entry, not
 * one per event. A row whose `last_seq` is NULL holds one event as written before batches were
 * kept so (schema version 5), and is read as it was.
 */
export const BATCH_ROW = "INSERT INTO run_events (run_id, seq, last_seq, event) VALUES (?, ?, ?, ?)";

/** How a run stands once a batch is written: its end, or `committed` (its turn was committed with the batch). */
export type BatchStatus = "finished" | "failed" | "committed";

/** A batch of a run's events to append, numbered on from `from` (null: no events). */
export interface Batch {
  runId: string;
  from: number | null;
  events: readonly RunEventRecord[];
  end: "finished" | "failed" | undefined;
  begin: NewRun | undefined;
}

/** How many runs' events one statement of `dropRunEvents` drops: a sweep's statements stay short, whatever piled up. */
const DROP_BATCH = 500;

/** The store's runs, the base of SqlStore: its dialect writes a batch of events its own way. */
export abstract class RunLog extends ExperimentTable implements RunLogStore {
  protected constructor(
    db: SqlDriver,
    now: () => number,
    readonly options: Store["options"],
  ) {
    super(db, now);
  }

  async beginRun(run: NewRun): Promise<RunRecord> {
    const id = run.id ?? randomUUID();
    await this.insertRun(this.db, id, run);
    return (await this.run(id))!;
  }

  /**
   * The run's record, with its first `events` already counted and its status `end` when they end
   * it; within the write that takes the thread, the record of the run that took it.
   */
  protected async insertRun(
    sql: Sql,
    id: string,
    run: NewRun,
    events = 0,
    end?: BatchStatus,
    turn?: number,
  ): Promise<void> {
    await sql.run(INSERT_RUN, this.runRow(id, run, events, end, turn));
  }

  protected runRow(id: string, run: NewRun, events: number, end: BatchStatus | undefined, turn?: number): unknown[] {
    const { lease } = run;
    const now = this.now();
    return [
      id,
      lease.threadId,
      lease.messageId,
      run.user,
      turn ?? lease.version + 1,
      run.follows ?? null,
      lease.token,
      end ?? "running",
      events,
      now,
      now,
    ];
  }

  /**
   * The numbering taken by one conditional update: the batch goes on from the run's last event, and
   * the run has not ended. `turn`: the run goes on with that turn (its commit kept the lease).
   */
  protected takeNumbers(runId: string, count: number, from: number | null, end?: BatchStatus, turn?: number) {
    return {
      sql: `UPDATE runs SET last_seq = last_seq + ?, status = COALESCE(?, status)${turn === undefined ? "" : ", turn = ?"}, updated_at = ?
         WHERE id = ? AND status NOT IN ('finished', 'failed')${from === null ? "" : " AND last_seq = ?"}`,
      params: [
        count,
        end ?? null,
        ...(turn === undefined ? [] : [turn]),
        this.now(),
        runId,
        ...(from === null ? [] : [from - 1]),
      ],
    };
  }

  /**
   * Forgets the run the lease recorded if it stored no event and the lease still holds: its thread
   * is given back before the run began (refused), so no reader is to find it.
   */
  protected async dropRun(lease: Lease): Promise<void> {
    await this.db.run(
      "DELETE FROM runs WHERE thread_id = ? AND lease_token = ? AND last_seq = 0 AND status = 'running' AND EXISTS (SELECT 1 FROM threads WHERE id = ? AND lease_token = ?)",
      [lease.threadId, lease.token, lease.threadId, lease.token],
    );
  }

  async continueRun(runId: string, lease: Lease): Promise<void> {
    const changed = await this.db.run(
      "UPDATE runs SET lease_token = ?, turn = ?, message_id = ?, status = 'running', updated_at = ? WHERE id = ? AND thread_id = ? AND status IN ('running', 'committed')",
      [lease.token, lease.version + 1, lease.messageId, this.now(), runId, lease.threadId],
    );
    if (changed !== 1)
      throw new StoreError("bad_request", `run ${runId} of thread ${lease.threadId} has ended or does not exist`);
  }

  async appendRunEvents(
    runId: string,
    events: readonly RunEventRecord[],
    end?: "finished" | "failed",
    begin?: NewRun,
  ): Promise<boolean> {
    if (events.length === 0 && end === undefined && begin === undefined) return true;
    return this.writeBatch({ runId, from: this.checkNumbering(runId, events, begin), events, end, begin });
  }

  /**
   * Writes a batch on its own (not with a turn), without waiting for the disk: false, and nothing
   * written, when the numbering was not taken (refused).
   */
  protected abstract writeBatch(batch: Batch): Promise<boolean>;

  /** Checks a batch's numbering: on from its first event without gaps, from 1 for a new run. */
  protected checkNumbering(runId: string, events: readonly RunEventRecord[], begin: NewRun | undefined): number | null {
    const from = events.length > 0 ? events[0]!.seq : null;
    events.forEach((e, i) => {
      if (e.seq !== from! + i)
        throw new StoreError("bad_request", `run ${runId}: events must be numbered on from ${from} without gaps`);
    });
    if (begin && from !== null && from !== 1)
      throw new StoreError("bad_request", `run ${runId}: a run's first events are numbered from 1, not ${from}`);
    return from;
  }

  /** A batch whose numbering was not taken: false, or an error for a run that does not exist. */
  protected async refusedBatch(sql: Sql, runId: string): Promise<false> {
    if (!(await first(sql, "SELECT id FROM runs WHERE id = ?", [runId])))
      throw new StoreError("bad_request", `no run '${runId}'`);
    return false;
  }

  /**
   * Reads asked for in the same turn of the event loop share one query: the followers of a run
   * are woken together (a notification, or their shared poll), and 1,500 of them then cost one
   * read, not 1,500. A read asked for later starts afresh, so it sees what was written since.
   */
  private shared<T>(key: string, read: () => Promise<T>): Promise<T> {
    const pending = this.reads.get(key);
    if (pending) return pending as Promise<T>;
    const started = read();
    this.reads.set(key, started);
    setImmediate(() => this.reads.get(key) === started && this.reads.delete(key));
    return started;
  }

  private readonly reads = new Map<string, Promise<unknown>>();

  async runEvents(runId: string, afterSeq = 0, limit?: number): Promise<RunEventRecord[]> {
    runKey(runId);
    return this.shared(`events ${runId} ${afterSeq} ${limit}`, () => this.readEvents(runId, afterSeq, limit));
  }

  private async readEvents(runId: string, afterSeq: number, limit?: number): Promise<RunEventRecord[]> {
    // Each row holds at least one event after `afterSeq`, so `limit` rows hold at least `limit`
    // of them (or all there are).
    const rows = await this.db.all(
      `SELECT seq, last_seq, event FROM run_events WHERE run_id = ? AND COALESCE(last_seq, seq) > ? ORDER BY seq${limit === undefined ? "" : " LIMIT ?"}`,
      limit === undefined ? [runId, afterSeq] : [runId, afterSeq, limit],
    );
    const events: RunEventRecord[] = [];
    for (const r of rows) {
      const seq = num(r.seq);
      const parsed: unknown = JSON.parse(String(r.event));
      if (r.last_seq === null || r.last_seq === undefined)
        events.push({ seq, event: parsed as RunEventRecord["event"] });
      else
        (parsed as RunEventRecord["event"][]).forEach((event, i) => {
          if (seq + i > afterSeq) events.push({ seq: seq + i, event });
        });
    }
    return limit === undefined ? events : events.slice(0, limit);
  }

  async run(runId: string): Promise<RunRecord | null> {
    runKey(runId);
    return this.shared(`run ${runId}`, async () => {
      const row = await first(this.db, `${RUN_WITH_LEASE} WHERE r.id = ?`, [runId]);
      return row ? this.runRecord(row) : null;
    });
  }

  async latestRun(threadId: string): Promise<RunRecord | null> {
    threadKey(threadId);
    const row = await first(
      this.db,
      `${RUN_WITH_LEASE} WHERE r.thread_id = ? ORDER BY r.started_at DESC, r.turn DESC LIMIT 1`,
      [threadId],
    );
    return row ? this.runRecord(row) : null;
  }

  watchRun(runId: string, listener: () => void): () => void {
    return this.db.watch(runId, listener, this.options.pollMs);
  }

  listRuns(query: RunQuery = {}): Promise<RunPage> {
    return listRuns(this.db, query, this.now());
  }

  /**
   * A run's events are there for a client to resume the run's stream; once the run has ended and
   * nobody resumed it for a while they are dead weight (most of a thread's bytes: a turn's row
   * keeps its trace, which is what the thread's history and a replay read). The run's record
   * stays, so a late resume is told the events are gone rather than that the run never was. A
   * failed run's events stay: nothing of it was committed, so they are all there is of what it
   * did and why it failed (the runs page's error and span tree read them), and failures are few.
   */
  async dropRunEvents(endedMsAgo: number): Promise<number> {
    const before = this.now() - endedMsAgo;
    let dropped = 0;
    let rows: number;
    // The runs are found from the events still kept (few: those of recent runs), not from all the
    // runs there ever were. Fewer rows than DROP_BATCH: none of those runs is left.
    do {
      rows = await this.db.run(
        `DELETE FROM run_events WHERE run_id IN (
           SELECT e.run_id FROM run_events e JOIN runs r ON r.id = e.run_id
           WHERE r.status = 'finished' AND r.updated_at < ?
           GROUP BY e.run_id LIMIT ?)`,
        [before, DROP_BATCH],
      );
      dropped += rows;
    } while (rows >= DROP_BATCH);
    return dropped;
  }

  private runRecord(row: Row): RunRecord {
    const now = this.now();
    const stored = String(row.status) as RunStatus;
    let status = stored;
    // Running: alive while the thread's lease is the run's own. Committed: its process writes the
    // last events at once; if it has not after a lease's lifetime, it died in between.
    if (
      stored === "running" &&
      !(row.t_token === row.lease_token && isLive({ lease_token: row.t_token, lease_expires: row.t_expires }, now))
    )
      status = "abandoned";
    if (stored === "committed" && now - num(row.updated_at) > this.options.leaseMs) status = "abandoned";
    return {
      id: String(row.id),
      threadId: String(row.thread_id),
      messageId: optStr(row.message_id),
      user: optStr(row.user_text),
      turn: num(row.turn),
      follows: optStr(row.follows),
      status,
      lastSeq: num(row.last_seq),
      startedAt: num(row.started_at),
      updatedAt: num(row.updated_at),
    };
  }
}

const RUN_COLUMNS =
  "id, thread_id, message_id, user_text, turn, follows, lease_token, status, last_seq, started_at, updated_at";

export const INSERT_RUN = `INSERT INTO runs (${RUN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/**
 * The record of a run that takes a thread, inserted by the statement that takes it (a common table
 * expression): `from` names what gives the thread's row, `turn` the SQL of the turn the run makes.
 */
export function insertTakenRun(
  from: string,
  turn: string,
  id: string,
  lease: Lease,
  user: string | null,
  now: number,
): { sql: string; params: unknown[] } {
  return {
    sql: `INSERT INTO runs (${RUN_COLUMNS})
         SELECT CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), ${turn}, NULL, CAST(? AS TEXT), 'running', 0, CAST(? AS BIGINT), CAST(? AS BIGINT) FROM ${from}`,
    params: [id, lease.threadId, lease.messageId, user, lease.token, now, now],
  };
}

const RUN_WITH_LEASE = `SELECT r.*, t.lease_token AS t_token, t.lease_expires AS t_expires FROM runs r LEFT JOIN threads t ON t.id = r.thread_id`;

/**
 * A batch's events as the JSON array its row keeps: JSON.stringify of the events, each event's
 * text given (`RunEventRecord.json`) passed through as it was made.
 */
export function batchText(events: readonly RunEventRecord[]): string {
  if (events.length === 0) return "[]";
  // As JSON.stringify writes an array's element that has no JSON (undefined): null.
  const parts = events.map((e) => e.json ?? (JSON.stringify(e.event) as string | undefined) ?? "null");
  // The brackets joined with the first and last parts, not around the joined text: `join` makes
  // one flat string, where "[" + text + "]" is a rope that the store's driver copies flat again
  // before encoding it (a turn's batches are hundreds of KiB).
  parts[0] = `[${parts[0]}`;
  parts[parts.length - 1] += "]";
  return parts.join(",");
}
