import type { Agent, Memory } from "@autograms/runtime";
import type { StalePolicy } from "@autograms/store";
import { lastReply, lockMemoryFile, readMemoryFile, writeMemoryFile } from "../agent-loading/memory-file.js";
import { playedBy } from "./played-by.js";
import { checkBuild, staleProblem, type ChatSession } from "./session.js";

/**
 * The conversation in memory only, or saved whole to `path` after every turn (`--memory`).
 * `agent`: the build it starts on (each turn names its own: it changes with --watch). A
 * conversation that cannot resume on it is refused, or with `onStale` restart begun again.
 */
export function memoryFileSession(
  agent: Agent,
  path: string | undefined,
  onStale: StalePolicy = "refuse",
): ChatSession {
  let memory: Memory | null = null;
  let restarted: string | null = null;
  if (path !== undefined) {
    lockMemoryFile(path);
    memory = readMemoryFile(path, agent.graph.agent);
    // Checked whole (checksum, graph) before any of it reaches the terminal.
    if (memory !== null && onStale === "restart" && (restarted = staleProblem(agent, memory)) !== null) memory = null;
    else if (memory !== null) agent.checkMemory(memory);
  }
  const stopping = new AbortController();
  return {
    resumed:
      memory === null
        ? null
        : {
            note: `(resuming the conversation saved in ${path}, after ${memory.turn} turns)`,
            lastReply: lastReply(memory),
          },
    ...(restarted !== null && { restarted }),
    check: async (next) => checkBuild(next, memory),
    async reply(build, text, listeners) {
      if (memory !== null && onStale === "restart" && staleProblem(build.agent, memory) !== null) memory = null;
      const from = text === null ? null : memory;
      const { trace, onText, pause } = listeners;
      const r = build.player
        ? await playedBy(build.player, build, path ?? "chat", text, listeners)(from, stopping.signal)
        : await build.agent.reply(text ?? "", from ?? undefined, {
            trace,
            ...(onText && { onText }),
            ...(pause && { pause }),
          });
      memory = r.memory;
      if (path !== undefined) writeMemoryFile(path, memory);
      return r;
    },
    // The file is written only after a turn: nothing to undo; a worker playing it is told to stop.
    async stop() {
      stopping.abort(new Error("stopped"));
    },
    async close() {},
  };
}
