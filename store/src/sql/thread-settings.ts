/**
 * A thread's model settings: the `settings` column of its row (migration 7), the JSON text the
 * server gave, kept and given back as it is (the server reads and checks it). Plain statements
 * that both dialects run as written.
 */
import { checkSettingsText, threadKey } from "../arguments.js";
import { first, optStr, type SqlDriver } from "./driver.js";

export async function readThreadSettings(db: SqlDriver, threadId: string): Promise<string | null> {
  threadKey(threadId);
  return optStr((await first(db, "SELECT settings FROM threads WHERE id = ?", [threadId]))?.settings);
}

export async function writeThreadSettings(
  db: SqlDriver,
  threadId: string,
  settings: string | null,
  now: number,
): Promise<void> {
  threadKey(threadId);
  checkSettingsText(settings);
  if (settings === null) {
    await db.run("UPDATE threads SET settings = NULL WHERE id = ?", [threadId]);
    return;
  }
  // A thread given settings before its first message is made now, as a thread with no turn
  // (the other columns' defaults are a new thread's), in the same statement.
  await db.run(
    `INSERT INTO threads (id, created_at, updated_at, settings) VALUES (?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET settings = excluded.settings`,
    [threadId, now, now, settings],
  );
}
