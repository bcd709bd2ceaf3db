import type { Agent, Memory } from "@autograms/runtime";
import { lastReply, lockMemoryFile, readMemoryFile, writeMemoryFile } from "../agent-loading/memory-file.js";
import type { ChatSession } from "./session.js";

/** The conversation in memory only, or saved whole to `path` after every turn (`--memory`). */
export function memoryFileSession(agent: Agent, path: string | undefined): ChatSession {
  let memory: Memory | null = null;
  if (path !== undefined) {
    lockMemoryFile(path);
    memory = readMemoryFile(path, agent.graph.agent);
    // Checked whole (checksum, graph) before any of it reaches the terminal.
    if (memory !== null) agent.checkMemory(memory);
  }
  return {
    resumed: memory === null ? null : { note: `(resuming the conversation saved in ${path}, after ${memory.turn} turns)`, lastReply: lastReply(memory) },
    async reply(text, { trace, onText }) {
      const r = await agent.reply(text ?? "", text === null ? undefined : memory, { trace, ...(onText && { onText }) });
      memory = r.memory;
      if (path !== undefined) writeMemoryFile(path, memory);
      return r;
    },
    // The file is written only after a turn: nothing to undo.
    async stop() {},
    async close() {},
  };
}
