import type { Store, ThreadInfo } from "@autograms/store";
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

export async function knownThread(store: Store, agent: string, id: string): Promise<ThreadInfo> {
  const info = await ownThread(store, agent, id);
  if (!info) throw new HttpError(404, "unknown_thread", `no thread '${id}'`);
  return info;
}
