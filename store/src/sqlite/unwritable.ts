/** SQLite's primary result codes (better-sqlite3 names them, SQLITE_IOERR_WRITE an extended one of SQLITE_IOERR). */
const REASONS = new Map(
  Object.entries({
    SQLITE_FULL: "the disk is full",
    SQLITE_CORRUPT: "the database file is damaged",
    SQLITE_NOTADB: "the database file is damaged (it is not a SQLite database)",
    SQLITE_READONLY: "the database is read-only",
    SQLITE_CANTOPEN: "the database file cannot be opened",
    SQLITE_BUSY: "the database is locked by another process",
    SQLITE_IOERR: "the disk failed to read or write",
    SQLITE_PERM: "the database file may not be written",
  }),
);

/** Why SQLite refused a write, by its (extended) result code. */
export function sqliteUnwritable(code: string): string | undefined {
  return REASONS.get(code) ?? REASONS.get(code.split("_").slice(0, 2).join("_"));
}
