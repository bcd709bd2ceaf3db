import { randomUUID } from "node:crypto";
import type { Agent } from "@autograms/runtime";
import { openStore, runTurn, StoreError, type BusyPolicy } from "@autograms/store";
import { CliError } from "../agent-loading/cli-error.js";
import { lastReply } from "../agent-loading/memory-file.js";
import { storeUrl } from "./store-url.js";
import type { ChatSession } from "./session.js";

export interface ThreadFlags {
  store?: string | true;
  thread?: string;
  busy?: BusyPolicy;
}

/**
 * The conversation as a thread of a store (`--store`, `--thread`): each turn leases the thread,
 * loads it, runs and commits, so other processes may take turns on the same thread in between.
 */
export async function threadSession(agent: Agent, flags: ThreadFlags): Promise<ChatSession> {
  const store = await openStore(storeUrl(flags.store));
  try {
    const id = flags.thread ?? randomUUID();
    const memory = (await store.thread(id)) === null ? null : (await store.load(id)).memory;
    if (memory === null) {
      process.stderr.write(`(new thread ${id}${flags.thread === undefined ? `; continue it with --thread ${id}` : ""})\n`);
    } else {
      // Checked whole (checksum, graph) before any of it reaches the terminal.
      agent.checkMemory(memory);
    }
    const policy = flags.busy ?? "reject";
    return {
      resumed: memory === null ? null : { note: `(resuming thread ${id} of ${store.where}, after ${memory.turn} turns)`, lastReply: lastReply(memory) },
      async reply(text, trace) {
        try {
          return await runTurn(store, agent, id, text, { policy, trace });
        } catch (err) {
          if (err instanceof StoreError && err.code === "thread_busy" && policy === "reject") {
            throw new CliError(`${err.message}; try again, or wait for it with --busy enqueue`);
          }
          throw err instanceof StoreError ? new CliError(err.message) : err;
        }
      },
      close: () => store.close(),
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}
