import type { Memory, MemoryDelta, StoredTraceEvent, TraceEvent } from "@autograms/runtime";
import type { ExperimentStore } from "./experiments.js";

/**
 * What happens to a message for a thread on which another run is in progress:
 * - `reject`: refused at once with a `thread_busy` error that names the run in progress;
 * - `enqueue`: waits its turn, first come first served among the waiters of that thread;
 * - `interrupt`: the run in progress is stopped (its commit is refused); its message stays in the
 *   history as an interrupted turn (no reply, memory unchanged), then the new message runs;
 * - `rollback`: the run in progress is stopped and leaves no trace (its message id may be sent
 *   again), then the new message runs.
 */
export const BUSY_POLICIES = ["reject", "enqueue", "interrupt", "rollback"] as const;
export type BusyPolicy = (typeof BUSY_POLICIES)[number];

export interface ThreadInfo {
  id: string;
  /** The title given it (setTitle), else the first line of its first user message (cut to 80 characters); null before any. */
  title: string | null;
  /** The agent's name, once a turn has been committed (a fork at turn 0: its source's agent). */
  agent: string | null;
  /** Hash of the graph the last committed turn ran on. */
  graphHash: string | null;
  /** Number of committed turns (interrupted ones included); the compare-and-swap version. */
  version: number;
  /** The conversation reached `quit`. */
  done: boolean;
  /** Turns 1..firstSeq-1 were pruned (retention); 1 when the whole history is there. */
  firstSeq: number;
  createdAt: number;
  updatedAt: number;
  /** The thread this one was forked from, and at which turn. */
  forkedFrom: { id: string; turn: number } | null;
  /** The run in progress, if any (its lease has not expired). */
  running: RunInfo | null;
}

export interface RunInfo {
  owner: string;
  messageId: string | null;
  since: number;
  expiresAt: number;
}

export type { StoredTraceEvent };

/**
 * `ok`: the turn as it ran; `interrupted`: its run was stopped (interrupted by a newer message, or
 * stopped by its client), so it has no reply and left the memory as it was; `replaced`: a later
 * turn answered its message again from the memory before it (regenerated), so the conversation no
 * longer holds it (kept in the history; its message id moved to the turn that replaced it).
 */
export type TurnStatus = "ok" | "interrupted" | "replaced";

export interface TurnRecord {
  seq: number;
  messageId: string | null;
  /** The user's message; null for the agent's opening turn. */
  user: string | null;
  reply: string | null;
  status: TurnStatus;
  /** The memory change this turn made (null when it made none or kept a snapshot only). */
  delta: MemoryDelta | null;
  /** The turn's trace events, without the prompts (`storedTrace`, of the runtime). */
  trace: StoredTraceEvent[];
  startedAt: number;
  committedAt: number;
}

/** A turn to commit: what the agent was told and answered, and the memory it left. */
export interface NewTurn {
  messageId: string | null;
  user: string | null;
  reply: string | null;
  memory: Memory;
  /**
   * The memory change: the `delta` of the reply that made `memory`, which the turn's row keeps.
   * Without one (a memory made some other way) the store keeps a snapshot of the whole memory.
   */
  delta?: MemoryDelta;
  trace?: TraceEvent[];
  /**
   * The trace (as `storedTrace` gives it) and the delta already packed as the store keeps them
   * (`packTurn`), instead of `trace` and `delta`: made in the thread that played the turn (a worker
   * thread), so the thread that commits copies and serializes none of the trace's objects.
   */
  packed?: PackedTurn;
  startedAt: number;
  /**
   * The number of the turn this one answers again (the thread's last): it is marked `replaced`
   * and its message id moves to this turn. `memory` was made from the memory before it.
   */
  replaces?: number;
  /**
   * The events of the run that made the turn, written with it in one transaction: the turn and
   * its run's events are committed together or not at all. A run another writer has ended
   * meanwhile refuses them, and the commit with them (`lease_lost`).
   */
  run?: RunWrite;
  /**
   * The thread stays held after this commit, by the same lease (its version now this turn's), for
   * the next turn of the same run: the agent's opening, committed before the message that took
   * the new thread is answered. Without it the commit gives the thread back.
   */
  continues?: boolean;
}

/**
 * A turn's trace and memory change as a store's row keeps them (`packTurn`): deflated JSON, plain
 * bytes that a worker thread can hand over without a copy. `delta` null: the turn keeps a snapshot.
 */
export interface PackedTurn {
  trace: Uint8Array;
  delta: Uint8Array | null;
}

/** A thread held by one run: commits are accepted only while the lease is this one. */
export interface Lease {
  threadId: string;
  token: string;
  owner: string;
  /** The thread's version when the lease was taken: the commit's compare-and-swap expects it. */
  version: number;
  messageId: string | null;
  ttlMs: number;
  /**
   * Set when the thread was taken from a lease that had lapsed unrenewed (its process killed or
   * stalled past the lease's lifetime): that lease's owner. A server counts these.
   */
  lapsedOwner?: string;
}

export interface AcquireOptions {
  policy?: BusyPolicy;
  messageId?: string | null;
  /** The user's message, kept with the lease so an interrupting run can record it. */
  user?: string | null;
  /** Who runs (shown to a refused caller); default `pid@host`. */
  owner?: string;
  ttlMs?: number;
  /** `enqueue` only: give up after this long (default: never). */
  waitMs?: number;
  /** Gives up waiting (`enqueue`); `runTurn` also drops a run under way and releases the thread. */
  signal?: AbortSignal;
  /** Create the thread if it does not exist (default true). */
  create?: boolean;
  /**
   * The agent that will play the turn: a thread another agent's turns made is refused as
   * `unknown_thread` (a store several agents share; a thread with no turn is anyone's).
   */
  agent?: string;
  /**
   * `enqueue`: a message whose id the run in progress is answering waits for that run (default
   * `wait`; `takeThread` then gives its turn back), or is refused at once with `same_message`
   * (`refuse`: the caller follows that run instead). `reject` and `interrupt` always refuse it.
   */
  sameMessage?: "wait" | "refuse";
  /**
   * Records the run that takes the thread with this id (status `running`, no events yet) in the
   * write that takes it: a reader finds the run of every lease a run holds, or knows there is none.
   */
  runId?: string;
}

/**
 * What `takeThread` found: the thread taken (its lease, and its memory at the lease's version),
 * or the turn the message id has made already (nothing taken).
 */
export type TakenThread =
  | {
      lease: Lease;
      memory: Memory | null;
      /** The thread's model settings as kept (`setThreadSettings`), read with the memory; null: none. */
      settings: string | null;
      made?: undefined;
    }
  | {
      made: TurnRecord;
      /** The thread ended with that turn (its memory reached `quit` there). */
      endedThere: boolean;
      lease?: undefined;
      memory?: undefined;
      settings?: undefined;
    };

/**
 * A run's events written in the same transaction as its turn (NewTurn.run): those not stored yet,
 * numbered on from its last stored one, as `appendRunEvents` takes them.
 */
export interface RunWrite {
  runId: string;
  events: readonly RunEventRecord[];
  /** The run ends with these events. Without it, the run is `committed` (its next turn follows). */
  end?: "finished" | "failed";
  /** The run's record, when no batch has written it yet. */
  begin?: NewRun;
}

/**
 * Where a run (one turn being served) stands:
 * - `running`: its process holds the thread's lease and is adding events;
 * - `committed`: its turn is committed, its last events are being written;
 * - `finished` / `failed`: its last event is written (a `failed` run committed nothing);
 * - `abandoned`: `running` (or `committed`) in the database, but its process is gone: its lease
 *   lapsed or was taken over (or, committed, it never wrote its last events). Nothing more will come
 *   from it. The store writes no end of its own: the events a run ends with are its writers' to
 *   say, so a reader that knows what the run is owed appends it (`appendRunEvents` with an end; the
 *   first of several readers writes it, the others find it written), and the run is `finished` or
 *   `failed` from then on.
 */
export type RunStatus = "running" | "committed" | "finished" | "failed" | "abandoned";

export interface RunRecord {
  id: string;
  threadId: string;
  messageId: string | null;
  user: string | null;
  /** The turn the run makes once committed (the thread's version + 1 when it started). */
  turn: number;
  /** The run this one goes on from in the same response (an opening turn run just before it). */
  follows: string | null;
  status: RunStatus;
  /** The number of its last stored event (0 before the first). */
  lastSeq: number;
  startedAt: number;
  updatedAt: number;
}

/**
 * One event of a run as stored: its number (from 1 within the run) and the event, a JSON value the
 * store knows nothing more of. `json`: its JSON text as its maker serialized it (once, where the
 * event was made), written as given; without it the store serializes `event`. Read back, an event
 * comes without it.
 */
export interface RunEventRecord {
  seq: number;
  event: unknown;
  json?: string;
}

export interface NewRun {
  /** Default: a new random id. */
  id?: string;
  /** The lease the run holds: the run is alive while the thread's lease is this one. */
  lease: Lease;
  user: string | null;
  follows?: string | null;
}

export interface LoadedThread {
  info: ThreadInfo;
  /** Null before the first turn. */
  memory: Memory | null;
}

export interface ThreadExport {
  format: "autograms-thread";
  version: 1;
  thread: Omit<ThreadInfo, "running">;
  turns: TurnRecord[];
  memory: Memory | null;
}

export interface PruneOptions {
  /** Delete threads with no turn committed for this long (ms). */
  olderThanMs?: number;
  /** Trim each thread's history to (at least) its last N turns, from a snapshot on. */
  keepTurns?: number;
}

export interface PruneResult {
  threadsDeleted: number;
  turnsDeleted: number;
}

export interface StoreOptions {
  /** Snapshot the whole memory every this many turns (default 50): a load applies at most that many deltas. */
  snapshotEvery?: number;
  /** ...or once the deltas since the last snapshot reach this many bytes (default 256 KiB). */
  snapshotBytes?: number;
  /** Lease lifetime (default 10 s), renewed while a run is in progress; a dead process's lease expires after it. */
  leaseMs?: number;
  /** Poll interval of `enqueue` waiters (default 50 ms). */
  pollMs?: number;
  /**
   * How many threads' memory a store keeps in its process after committing it (default 100; 0:
   * none), so the thread's next turn here neither rebuilds it nor has it checked again.
   */
  memoryCache?: number;
  /** ...and at most this many MiB of it, about (default 128): the least recently used go first. */
  memoryCacheMb?: number;
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
}

/**
 * A store of threads, by concern as LangGraph splits its saver: the threads and their history
 * (ThreadStore), who may write a thread's next turn (LeaseStore), the events of the runs that
 * serve them (RunLogStore); beside them, the results of evaluation runs (ExperimentStore). Two
 * implementations (SQLite, Postgres) pass the same test suite, one spec file per concern.
 */
export interface Store extends ThreadStore, LeaseStore, RunLogStore, ExperimentStore {
  /** Where it is, without credentials (for messages). */
  readonly where: string;
  readonly options: Required<Omit<StoreOptions, "now">>;

  /**
   * A readiness probe: a write that changes nothing, committed as a turn is. Throws a StoreError
   * `unavailable` saying why (unreachable, disk full, file damaged or read-only), never where.
   */
  ping(): Promise<void>;

  close(): Promise<void>;
}

/** Threads and their committed history: what a thread holds, and what may be done with it as a whole. */
export interface ThreadStore {
  createThread(id?: string): Promise<ThreadInfo>;
  thread(id: string): Promise<ThreadInfo | null>;
  /** The most recently active first; `agent`: only that agent's threads (and those with no turn yet). */
  listThreads(options?: { limit?: number; agent?: string }): Promise<ThreadInfo[]>;

  /** The thread's memory at its head (one snapshot plus at most `snapshotEvery` deltas). */
  load(threadId: string): Promise<LoadedThread>;
  /** The memory as it was after turn `turn` (null for 0: before the first); a pruned turn is refused. */
  memoryAt(threadId: string, turn: number): Promise<Memory | null>;
  /** The turn a message id made, if it made one. */
  turnByMessage(threadId: string, messageId: string): Promise<TurnRecord | null>;
  turns(threadId: string): Promise<TurnRecord[]>;
  /** A new thread holding the first `turn` turns of another. */
  fork(threadId: string, turn: number, newId?: string): Promise<ThreadInfo>;
  exportThread(threadId: string): Promise<ThreadExport>;
  /** Deletes the thread and every row of it; false when there was none. */
  deleteThread(threadId: string): Promise<boolean>;
  /** Names the thread (one line, 1 to 200 characters); null: called by its first user message again. */
  setTitle(threadId: string, title: string | null): Promise<ThreadInfo>;
  /**
   * The model settings chosen for the thread's next runs, as the JSON text they were set with
   * (the store does not read it); null when none were, or there is no such thread.
   */
  threadSettings(threadId: string): Promise<string | null>;
  /**
   * Keeps `settings` (JSON text, not read here) for the thread's next runs, in every process of
   * the store; a thread not made yet is made, with no turn. Null: none again. A fork starts
   * without them; the thread's deletion takes them with it.
   */
  setThreadSettings(threadId: string, settings: string | null): Promise<void>;
  prune(options: PruneOptions): Promise<PruneResult>;
}

/** Who may write a thread's next turn: a lease taken for one run, renewed while it plays, given back by its commit. */
export interface LeaseStore {
  /** Takes the thread for one run, following the busy policy. */
  acquire(threadId: string, options?: AcquireOptions): Promise<Lease>;
  /**
   * `acquire` for one message, in one transaction on the common path (a free thread, a new
   * message): the message id's turn, if it made one (then nothing is taken), the busy policy, the
   * lease; then the memory at the thread's head, kept by this process after its last commit there
   * or read.
   */
  takeThread(threadId: string, options?: AcquireOptions): Promise<TakenThread>;
  /** Extends the lease; false when it was lost. */
  renew(lease: Lease): Promise<boolean>;
  /**
   * Extends all these leases in one statement (a process renews every lease it holds at once);
   * the tokens of those still held. The others were lost (taken over, or lapsed unrenewed).
   */
  renewAll(leases: readonly Lease[]): Promise<Set<string>>;
  /**
   * Gives the thread back. `dropRun`: the run the lease recorded (`AcquireOptions.runId`) is
   * forgotten with it if it stored no event yet (the turn was refused before it began), as long as
   * the lease still holds.
   */
  release(lease: Lease, options?: { dropRun?: boolean }): Promise<void>;
  /** Commits one turn and releases the lease, if the lease still holds and the version is unchanged. */
  commit(lease: Lease, turn: NewTurn): Promise<TurnRecord>;
}

/** The runs that serve turns, and their events as stored for clients to follow or resume. */
export interface RunLogStore {
  /** Records a run that took the thread with `lease` (status `running`, no events yet). */
  beginRun(run: NewRun): Promise<RunRecord>;
  /**
   * The run goes on with another turn under a new lease: running again, for the turn this lease
   * makes. (The server keeps one lease for both turns of a run that opens a new thread and then
   * answers the message that came with it: NewTurn.continues.)
   */
  continueRun(runId: string, lease: Lease): Promise<void>;
  /**
   * Appends events numbered on from the run's last one, in one transaction, and wakes the run's
   * watchers in every process. `end` closes the run (its last events). `begin` records the run
   * first, in the same transaction (`beginRun` and the first batch in one write: a short run is
   * then a single write, its record, its events and its end). False, and nothing written, when
   * the run has already ended or another writer numbered these events first.
   */
  appendRunEvents(
    runId: string,
    events: readonly RunEventRecord[],
    end?: "finished" | "failed",
    begin?: NewRun,
  ): Promise<boolean>;
  /** The run's events numbered after `afterSeq`, in order (at most `limit`). */
  runEvents(runId: string, afterSeq?: number, limit?: number): Promise<RunEventRecord[]>;
  run(runId: string): Promise<RunRecord | null>;
  /** The thread's most recent run, if it had one. */
  latestRun(threadId: string): Promise<RunRecord | null>;
  /**
   * Calls `listener` (with no argument: read `runEvents` to see what came) when events of the run
   * may have been added, by this process or another (Postgres: LISTEN/NOTIFY; SQLite: in this
   * process at once, from other processes by polling). Returns the function that stops it.
   */
  watchRun(runId: string, listener: () => void): () => void;
  /**
   * Runs of every thread, the most recently started first, a page at a time (`next` continues
   * after the last one given), filtered as `query` says.
   */
  listRuns(query?: RunQuery): Promise<RunPage>;
  /**
   * Drops the events of the runs that finished (committed their turn) at least `endedMsAgo` ms ago
   * (a failed run's are kept: they are all there is of it), a
   * bounded number of runs to a statement; their records stay (`run` still answers, its `lastSeq`
   * as it was, and `runEvents` gives nothing). The number of event rows dropped.
   */
  dropRunEvents(endedMsAgo: number): Promise<number>;
}

/**
 * How a listed run ended, as a person reads it: `running`; `committed` (its turn is kept);
 * `failed` (nothing committed); `stopped` (stopped before it finished, by its client or the
 * server; nothing committed beyond the interrupted message); `abandoned` (its process is gone).
 */
export const LISTED_RUN_STATUSES = ["running", "committed", "failed", "stopped", "abandoned"] as const;
export type ListedRunStatus = (typeof LISTED_RUN_STATUSES)[number];

export interface RunQuery {
  /** Runs per page (default 50, at most 1,000). */
  limit?: number;
  /** The `next` of the page before. */
  after?: string;
  /** Only runs in one of these states. */
  status?: readonly ListedRunStatus[];
  /** Only the runs of this agent's threads. */
  agent?: string;
  /** Only runs started at or after this time (ms since the epoch)... */
  since?: number;
  /** ...and before this one. */
  until?: number;
  /** Only failed or stopped runs whose last events (where the error is) hold this text, any case. */
  error?: string;
  /** With each committed run, its turn's stored trace (unpacked: costs a read per run). */
  withTrace?: boolean;
}

/** `turn`: the turn the run made (committed), or would have made; `updatedAt`: when its last event was written. */
export interface ListedRun
  extends Pick<RunRecord, "id" | "threadId" | "user" | "turn" | "follows" | "startedAt" | "updatedAt"> {
  /** The thread's agent (null before its first turn). */
  agent: string | null;
  status: ListedRunStatus;
  /**
   * The committed turn's status, when it started and when it was committed (null when none was).
   * A short run's record may be written with its commit: its turn's start is when it began.
   */
  turnStatus: TurnStatus | null;
  turnStartedAt: number | null;
  committedAt: number | null;
  /** A failed or stopped run's error, from its last event. */
  error: { code: string; message: string } | null;
  /** Asked for (`withTrace`): the committed turn's stored trace; null when none. */
  trace?: StoredTraceEvent[] | null;
}

export interface RunPage {
  runs: ListedRun[];
  /** Give it as `after` for the next page; null on the last one. */
  next: string | null;
}
