import type { Store } from "@autograms/store";

/** A thread's row, as the store reads it. */
export type ThreadInfo = NonNullable<Awaited<ReturnType<Store["thread"]>>>;
import { HttpError } from "./http/errors.js";

/**
 * The thread, if it is one of the served agent's: a store may hold other agents' threads too (the
 * CLI's, another server's), and this server neither shows nor touches those: to its clients they
 * do not exist. A thread with no turn yet belongs to whoever takes it first.
 */
export async function ownThread(store: Store, agent: string, id: string): Promise<ThreadInfo | null> {
  const info = await store.thread(id);
  return info && isOwn(info, agent) ? info : null;
}

export const isOwn = (info: ThreadInfo, agent: string) => info.agent === null || info.agent === agent;

/** The agent's thread; else 404, or 409 `wrong_agent` for a thread of another agent this server serves (`served`). */
export async function knownThread(
  store: Store,
  agent: string,
  id: string,
  served: readonly string[] = [],
): Promise<ThreadInfo> {
  const info = await store.thread(id);
  if (info && isOwn(info, agent)) return info;
  throw notThisAgents(id, agent, info?.agent ?? null, served);
}

/**
 * Why `agent` has no thread `id`: none of that id (404), or it is another agent's. Threads of the
 * agents served here are named as such (409 `wrong_agent`, saying where the thread is served);
 * those of agents served elsewhere do not exist to this server's clients.
 */
export function notThisAgents(id: string, agent: string, owner: string | null, served: readonly string[]): HttpError {
  if (owner !== null && owner !== agent && served.includes(owner))
    return new HttpError(
      409,
      "wrong_agent",
      `thread '${id}' belongs to agent '${owner}', not '${agent}': its routes are under /agents/${owner}/`,
    );
  return new HttpError(404, "unknown_thread", `no thread '${id}'`);
}
