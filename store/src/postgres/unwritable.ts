/** Postgres refusing writes: a standby (25006 read_only_sql_transaction), or out of space (53100 disk_full). */
const REASONS = new Map(
  Object.entries({
    "25006": "the database is read-only (a standby?)",
    "53100": "the database's disk is full",
  }),
);

/** Why Postgres refused a write, by its SQLSTATE. */
export function postgresUnwritable(code: string): string | undefined {
  return REASONS.get(code);
}
