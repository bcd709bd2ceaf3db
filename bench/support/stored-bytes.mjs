// The bytes a store's rows hold, the same measure for SQLite and Postgres (and LangGraph's rows in
// bench/store.mjs): text and blob lengths, plus 8 bytes for each number and 16 for a row's key.
// By table: the turns, the memory's snapshots, the runs and the runs' events; of one thread, or
// of all of them.
import Database from "better-sqlite3";
import pg from "pg";

/** The query, `thread` a thread id (a bench's own: no quoting needed) or none for every thread. */
function query(thread, dialect) {
  const of = (column) => (thread === undefined ? "" : ` WHERE ${column} = '${thread}'`);
  const sql = `
  SELECT (SELECT COALESCE(SUM(LENGTH(COALESCE(message_id, '')) + LENGTH(COALESCE(user_text, '')) + LENGTH(COALESCE(reply, ''))
            + LENGTH(status) + LENGTH(COALESCE(delta, '')) + LENGTH(trace) + 16 + 8 + 8 + 8), 0) FROM turns${of("thread_id")}) AS turns,
         (SELECT COALESCE(SUM(LENGTH(memory) + 8 + 16), 0) FROM snapshots${of("thread_id")}) AS snapshots,
         (SELECT COALESCE(SUM(LENGTH(id) + LENGTH(thread_id) + LENGTH(COALESCE(message_id, '')) + LENGTH(COALESCE(user_text, ''))
            + LENGTH(COALESCE(follows, '')) + LENGTH(COALESCE(lease_token, '')) + LENGTH(status) + 8 * 4), 0) FROM runs${of("thread_id")}) AS runs,
         (SELECT COALESCE(SUM(LENGTH(e.run_id) + LENGTH(e.event) + 8 + 8), 0) FROM run_events e JOIN runs r ON r.id = e.run_id${of("r.thread_id")}) AS events`;
  return dialect === "postgres" ? sql.replaceAll("LENGTH(", "OCTET_LENGTH(") : sql;
}

const totals = (row) => {
  const parts = Object.fromEntries(["turns", "snapshots", "runs", "events"].map((k) => [k, Number(row[k])]));
  return { ...parts, total: parts.turns + parts.snapshots + parts.runs + parts.events };
};

/**
 * A reader of the bytes stored at `url` (sqlite:PATH or postgres://...): `read(thread?)` gives
 * `{ turns, snapshots, runs, events, total }` (all 0 before the schema exists); `close()`.
 */
export async function storedBytes(url) {
  if (url.startsWith("sqlite:")) {
    const db = new Database(url.slice("sqlite:".length));
    return {
      read: async (thread) => {
        try {
          return totals(db.prepare(query(thread, "sqlite")).get());
        } catch {
          return totals({ turns: 0, snapshots: 0, runs: 0, events: 0 });
        }
      },
      close: async () => db.close(),
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    read: async (thread) => {
      try {
        return totals((await client.query(query(thread, "postgres"))).rows[0]);
      } catch {
        return totals({ turns: 0, snapshots: 0, runs: 0, events: 0 });
      }
    },
    close: () => client.end(),
  };
}
