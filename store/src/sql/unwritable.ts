/**
 * Why a store cannot take a write, in words fit for an unauthenticated readiness probe: what is
 * wrong, never where the store is (a path, a host, a password).
 */
import { StoreError } from "../errors.js";

/** SQLite's primary result codes (better-sqlite3 names them, SQLITE_IOERR_WRITE an extended one of SQLITE_IOERR). */
const SQLITE: Record<string, string> = {
  SQLITE_FULL: "the disk is full",
  SQLITE_CORRUPT: "the database file is damaged",
  SQLITE_NOTADB: "the database file is damaged (it is not a SQLite database)",
  SQLITE_READONLY: "the database is read-only",
  SQLITE_CANTOPEN: "the database file cannot be opened",
  SQLITE_BUSY: "the database is locked by another process",
  SQLITE_IOERR: "the disk failed to read or write",
  SQLITE_PERM: "the database file may not be written",
};

export function whyUnwritable(err: unknown): string {
  if (err instanceof StoreError && err.code === "unavailable") return "the database cannot be reached";
  const code = String((err as { code?: unknown } | null)?.code ?? "");
  const sqlite = SQLITE[code] ?? SQLITE[code.split("_").slice(0, 2).join("_")];
  if (sqlite !== undefined) return sqlite;
  // Postgres refusing writes: a standby (25006 read_only_sql_transaction), or out of space (53100).
  if (code === "25006") return "the database is read-only (a standby?)";
  if (code === "53100") return "the database's disk is full";
  return "the database failed to write";
}
