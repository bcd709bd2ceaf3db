import type { Agent, Memory } from "@autograms/runtime";
import type { StalePolicy } from "@autograms/store";
import { lastReply, lockMemoryFile, readMemoryFile, writeMemoryFile } from "../agent-loading/memory-file.js";
import { staleProblem, type ChatSession } from "./session.js";

/**
 * The conversation in memory only, or saved whole to `path` after every turn (`--memory`).
 * `agent()`: the build to run each turn on (it changes with --watch). A conversation that cannot
 * resume on it is refused, or with `onStale` restart begun again.
 */
export function memoryFileSession(
  agent: () => Agent,
  path: string | undefined,
  onStale: StalePolicy = "refuse",
): ChatSession {
  let memory: Memory | null = null;
  let restarted: string | null = null;
  if (path !== undefined) {
    lockMemoryFile(path);
    memory = readMemoryFile(path, agent().graph.agent);
    // Checked whole (checksum, graph) before any of it reaches the terminal.
    if (memory !== null && onStale === "restart" && (restarted = staleProblem(agent(), memory)) !== null) memory = null;
    else if (memory !== null) agent().checkMemory(memory);
  }
  return {
    resumed:
      memory === null
        ? null
        : {
            note: `(resuming the conversation saved in ${path}, after ${memory.turn} turns)`,
            lastReply: lastReply(memory),
          },
    ...(restarted !== null && { restarted }),
    check: async (next) => staleProblem(next, memory),
    async reply(text, { trace, onText, pause }) {
      const build = agent();
      if (memory !== null && onStale === "restart" && staleProblem(build, memory) !== null) memory = null;
      const r = await build.reply(text ?? "", text === null ? undefined : (memory ?? undefined), {
        trace,
        ...(onText && { onText }),
        ...(pause && { pause }),
      });
      memory = r.memory;
      if (path !== undefined) writeMemoryFile(path, memory);
      return r;
    },
    // The file is written only after a turn: nothing to undo.
    async stop() {},
    async close() {},
  };
}
