// Public API of @autograms/store: durable conversations (threads) in SQLite or Postgres.
export { openStore } from "./open-store.js";
export { runTurn, takeTurn, TakenTurn } from "./turns/run-turn.js";
export type {
  Played,
  PlayedElsewhere,
  Playing,
  TakeOptions,
  TurnOptions,
  TurnOutcome,
} from "./turns/run-turn.js";
export { acquireTurn, STALE_POLICIES } from "./turns/held-turn.js";
export type { Acquired, HeldTurn, PlayedTurn, RepeatedTurn, StalePolicy } from "./turns/held-turn.js";
export { editThreadVariables, migrateThread } from "./turns/change-thread.js";
export type { MemoryChange, Migration } from "./turns/change-thread.js";
export { replayRecorded, replayTurn } from "./turns/replay-turn.js";
export type { ReplayedTurn, ReplayOptions } from "./turns/replay-turn.js";
export { checkThreads } from "./turns/check-threads.js";
export type { ThreadCheck } from "./turns/check-threads.js";
export { messageConflict, StoreError } from "./errors.js";
export type { StoreErrorCode } from "./errors.js";
export { parseStoreUrl, storeUrlFrom, DEFAULT_STORE_PATH } from "./url.js";
export type { StoreLocation, UrlOptions } from "./url.js";
export { MIGRATIONS, SCHEMA_VERSION } from "./sql/migrations.js";
export { BUSY_POLICIES, LISTED_RUN_STATUSES } from "./types.js";
export type {
  Store,
  ThreadStore,
  LeaseStore,
  RunLogStore,
  StoreOptions,
  BusyPolicy,
  ThreadInfo,
  RunInfo,
  TurnRecord,
  TurnStatus,
  StoredTraceEvent,
  NewTurn,
  PackedTurn,
  Lease,
  AcquireOptions,
  TakenThread,
  RunWrite,
  LoadedThread,
  ThreadExport,
  PruneOptions,
  PruneResult,
  RunStatus,
  RunRecord,
  RunEventRecord,
  NewRun,
  ListedRun,
  ListedRunStatus,
  RunQuery,
  RunPage,
} from "./types.js";
export { packTurn, TraceText } from "./packed-turn.js";
export { MemoryCache } from "./memory-cache.js";
// Results of evaluation runs, kept to be listed and compared later.
export type { ExperimentStore, Experiment, ExperimentInfo, NewExperiment } from "./experiments.js";
