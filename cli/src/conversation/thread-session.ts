import { randomUUID } from "node:crypto";
import type { Agent } from "@autograms/runtime";
import { openStore, runTurn, StoreError, type BusyPolicy, type StalePolicy } from "@autograms/store";
import { CliError } from "../agent-loading/cli-error.js";
import { lastReply } from "../agent-loading/memory-file.js";
import { storeUrl } from "./store-url.js";
import { playedBy } from "./played-by.js";
import { checkBuild, staleProblem, type ChatSession } from "./session.js";

export interface ThreadFlags {
  store?: string | true;
  thread?: string;
  busy?: BusyPolicy;
  onStale?: StalePolicy;
}

/**
 * The conversation as a thread of a store (`--store`, `--thread`): each turn leases the thread,
 * loads it, runs and commits, so other processes may take turns on the same thread in between.
 */
export async function threadSession(agent: Agent, flags: ThreadFlags): Promise<ChatSession> {
  const store = await openStore(storeUrl(flags.store));
  try {
    const id = flags.thread ?? randomUUID();
    const saved = (await store.thread(id)) === null ? null : (await store.load(id)).memory;
    const onStale = flags.onStale ?? "refuse";
    // A stale thread restarted: its first turn here is the agent's opening again (runTurn's onStale).
    const restarted = onStale === "restart" ? staleProblem(agent, saved) : null;
    const memory = restarted === null ? saved : null;
    if (memory === null && saved !== null) {
      process.stderr.write(`(thread ${id} begins again)\n`);
    } else if (memory === null) {
      // A made-up id is a result the user needs to go on, so it goes with the replies on stdout.
      if (flags.thread === undefined) process.stdout.write(`(new thread ${id}; continue it with --thread ${id})\n`);
      else process.stderr.write(`(new thread ${id})\n`);
    } else if (memory.done) {
      throw new CliError(
        `thread ${id} has ended (it reached 'quit'); go on from an earlier turn with autograms threads fork ${id} --at N, or start a new thread`,
      );
    } else {
      // Checked whole (checksum, graph) before any of it reaches the terminal.
      agent.checkMemory(memory);
    }
    const policy = flags.busy ?? "reject";
    const stopping = new AbortController();
    let running: Promise<unknown> | null = null;
    return {
      ...(restarted !== null && { restarted }),
      check: async (next) =>
        checkBuild(next, (await store.load(id)).memory, `autograms threads migrate ${id} --to NODE --take-prompt`),
      resumed:
        memory === null
          ? null
          : {
              note: `(resuming thread ${id} of ${store.where}, after ${memory.turn} turns)`,
              lastReply: lastReply(memory),
            },
      async reply(build, text, listeners) {
        const { trace, onText, pause } = listeners;
        try {
          const turn = runTurn(store, build.agent, id, text, {
            policy,
            onStale,
            trace,
            ...(onText && { onText }),
            ...(pause && { pause }),
            signal: stopping.signal,
            ...(build.player && { play: playedBy(build.player, build, id, text, listeners) }),
          });
          running = turn;
          return await turn;
        } catch (err) {
          // Stopped (Ctrl-C): the process exits once the thread is released; nothing to report.
          if (stopping.signal.aborted) return new Promise<never>(() => {});
          if (err instanceof StoreError && err.code === "thread_busy" && policy === "reject") {
            throw new CliError(`${err.message}; try again, or wait for it with --busy enqueue`);
          }
          throw err instanceof StoreError ? new CliError(err.message) : err;
        }
      },
      // Settles once runTurn has released the thread, so the next process need not wait for the lease to lapse.
      async stop() {
        stopping.abort();
        await running?.catch(() => {});
      },
      close: () => store.close(),
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}
