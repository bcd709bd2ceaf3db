/**
 * The model settings chosen for a thread (`PUT /api/threads/:id/settings`), kept with the thread
 * in the store as JSON text, so that every process of the store, and a restarted one, plays the
 * thread's runs with them. The store keeps the text as given: it is checked here when read back,
 * and a row changed by hand or damaged is refused naming the thread and the field.
 */
import { settingsProblem, type ModelSettings } from "@autograms/runtime";
import type { Store } from "@autograms/store";
import { HttpError } from "../http/errors.js";

/** The settings kept as `text` (ThreadStore.threadSettings), checked; undefined: the server's own. */
export function settingsFrom(threadId: string, text: string | null): ModelSettings | undefined {
  if (text === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw damaged(threadId, `they are not JSON (${(err as Error).message})`);
  }
  const problem = settingsProblem(value);
  if (problem) throw damaged(threadId, `${problem.field || "they"} ${problem.message}`);
  return value as ModelSettings;
}

/** Keeps checked `settings` for the thread's next runs (`{}`: the server's own again); what the thread has now. */
export async function keepSettings(
  store: Pick<Store, "setThreadSettings">,
  threadId: string,
  settings: ModelSettings,
): Promise<ModelSettings | null> {
  const chosen = Object.keys(settings).length === 0 ? null : settings;
  await store.setThreadSettings(threadId, chosen && JSON.stringify(chosen));
  return chosen;
}

function damaged(threadId: string, why: string): HttpError {
  return new HttpError(
    500,
    "bad_settings",
    `thread ${threadId}'s model settings in the store are damaged: ${why}; PUT /api/threads/${threadId}/settings gives it new ones`,
  );
}
