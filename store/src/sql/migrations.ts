/**
 * The schema, as numbered migrations. A database records the ones it has had in
 * `schema_migrations`; opening a store applies the missing ones in order, in one transaction that
 * every other process opening the same database waits for (SQLite's write lock, a Postgres
 * advisory lock), so two processes starting at once never race. Never edit a migration that has
 * shipped: add the next one.
 */
import { StoreError } from "../errors.js";
import type { Sql, SqlDriver } from "./driver.js";
import { num } from "./driver.js";

interface Migration {
  version: number;
  name: string;
  statements: string[];
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: "threads, turns, snapshots, waiters",
    statements: [
      // One row per conversation: its head (version = committed turns), the snapshot the head
      // loads from, and the lease of the run in progress.
      `CREATE TABLE threads (
        id TEXT PRIMARY KEY,
        agent TEXT,
        graph_hash TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        done INTEGER NOT NULL DEFAULT 0,
        first_seq INTEGER NOT NULL DEFAULT 1,
        snap_seq INTEGER NOT NULL DEFAULT 0,
        snap_bytes BIGINT NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        parent_id TEXT,
        parent_seq INTEGER,
        lease_token TEXT,
        lease_owner TEXT,
        lease_message TEXT,
        lease_user TEXT,
        lease_since BIGINT,
        lease_expires BIGINT,
        queue_tail INTEGER NOT NULL DEFAULT 0
      )`,
      "CREATE INDEX threads_updated ON threads (updated_at)",
      // Append-only: one row per turn, holding that turn's memory delta, never the whole memory.
      // JSON columns are deflated JSON ({bytes}: BLOB or BYTEA; packed-json.ts).
      `CREATE TABLE turns (
        thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        message_id TEXT,
        user_text TEXT,
        reply TEXT,
        status TEXT NOT NULL,
        delta {bytes},
        trace {bytes} NOT NULL,
        started_at BIGINT NOT NULL,
        committed_at BIGINT NOT NULL,
        PRIMARY KEY (thread_id, seq)
      )`,
      // A message id makes at most one turn of a thread (NULLs, the opening turns, are distinct).
      "CREATE UNIQUE INDEX turns_message ON turns (thread_id, message_id)",
      // The whole memory after turn `seq`, every K turns or bytes.
      `CREATE TABLE snapshots (
        thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        memory {bytes} NOT NULL,
        PRIMARY KEY (thread_id, seq)
      )`,
      // Runs waiting for a busy thread (policy enqueue), served in ticket order.
      `CREATE TABLE waiters (
        thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        ticket INTEGER NOT NULL,
        owner TEXT NOT NULL,
        expires BIGINT NOT NULL,
        PRIMARY KEY (thread_id, ticket)
      )`,
    ],
  },
  {
    version: 2,
    name: "runs and their events",
    statements: [
      // One row per run (a turn being served): which lease it holds (the run is alive while the
      // thread's lease is this one), how far its events go, and whether it has ended.
      `CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        message_id TEXT,
        user_text TEXT,
        turn INTEGER NOT NULL,
        follows TEXT,
        lease_token TEXT,
        status TEXT NOT NULL,
        last_seq INTEGER NOT NULL DEFAULT 0,
        started_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      )`,
      "CREATE INDEX runs_thread ON runs (thread_id, started_at)",
      // The events as they happened, numbered from 1 within the run; written in batches (a row
      // each from version 5), read by any process after a number.
      `CREATE TABLE run_events (
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      )`,
    ],
  },
  {
    version: 3,
    name: "thread titles",
    // A title given by hand; without one a thread is called by its first user message (read with
    // the row, so nothing is written on the turn's path).
    statements: ["ALTER TABLE threads ADD COLUMN title TEXT"],
  },
  {
    version: 4,
    name: "the checksum of a thread's head memory",
    // Written by every commit: a process that kept the memory it committed uses it again only
    // while the row still names it (another process's commit changes it).
    statements: ["ALTER TABLE threads ADD COLUMN memory_checksum TEXT"],
  },
  {
    version: 5,
    name: "run events kept in batches",
    // A batch of a run's events is one row (its first and last numbers, its events as a JSON
    // array), not a row per event: a turn's events cost one row and one index entry. Rows written
    // before (last_seq NULL) hold one event each and are read as they were.
    statements: ["ALTER TABLE run_events ADD COLUMN last_seq INTEGER"],
  },
  {
    version: 6,
    name: "evaluation experiments",
    statements: [
      // One row per stored `autograms eval` run of one build: its summary in columns, listed
      // without unpacking; its report and the graph it ran on (for the lines of its nodes) as
      // deflated JSON. `compared_with`: the other build's experiment, run beside it.
      `CREATE TABLE experiments (
        id TEXT PRIMARY KEY,
        created_at BIGINT NOT NULL,
        agent TEXT NOT NULL,
        build TEXT NOT NULL,
        source_hash TEXT,
        model TEXT NOT NULL,
        cases_file TEXT NOT NULL,
        cases INTEGER NOT NULL,
        runs INTEGER NOT NULL,
        passed INTEGER NOT NULL,
        failed INTEGER NOT NULL,
        ms BIGINT NOT NULL,
        compared_with TEXT,
        report {bytes} NOT NULL,
        graph {bytes} NOT NULL
      )`,
      "CREATE INDEX experiments_created ON experiments (created_at)",
    ],
  },
  {
    version: 7,
    name: "a thread's model settings",
    // The model settings chosen for a thread's next runs, as the JSON text the server gave (the
    // store does not read it): kept with the thread's row, so every process of the store and a
    // restarted one play its runs with them, and a deletion takes them with it.
    statements: ["ALTER TABLE threads ADD COLUMN settings TEXT"],
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Brings the database to SCHEMA_VERSION; refuses one that a newer version of the store migrated. */
export async function migrate(driver: SqlDriver, now: number): Promise<void> {
  await driver.migrationTransaction(async (tx: Sql) => {
    await tx.run(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
    );
    const [row] = await tx.all("SELECT MAX(version) AS v FROM schema_migrations");
    const current = num(row?.v);
    if (current > SCHEMA_VERSION) {
      throw new StoreError(
        "schema_too_new",
        `the store's schema is version ${current}, newer than this version of autograms knows (${SCHEMA_VERSION}); upgrade autograms`,
      );
    }
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue;
      for (const statement of m.statements) await tx.run(statement.replaceAll("{bytes}", driver.bytesType));
      await tx.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", [
        m.version,
        m.name,
        now,
      ]);
    }
  });
}
