// How many messages wait for a thread (the store's queue of `enqueue` waiters), read straight
// from the database: a test waits for a message to be queued before it sends the next one.
import Database from "better-sqlite3";
import pg from "pg";
import { parseStoreUrl } from "@autograms/store";

async function count(storeUrl: string, thread: string): Promise<number> {
  const location = parseStoreUrl(storeUrl);
  if (location.kind === "sqlite") {
    const db = new Database(location.path, { readonly: true });
    try {
      return (db.prepare("SELECT COUNT(*) AS n FROM waiters WHERE thread_id = ?").get(thread) as { n: number }).n;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: location.url });
  await client.connect();
  try {
    return Number((await client.query("SELECT COUNT(*) AS n FROM waiters WHERE thread_id = $1", [thread])).rows[0].n);
  } finally {
    await client.end();
  }
}

/** Resolves once at least `n` messages wait for the thread. */
export async function queued(storeUrl: string, thread: string, n: number): Promise<void> {
  while ((await count(storeUrl, thread)) < n) await new Promise((r) => setTimeout(r, 20));
}
