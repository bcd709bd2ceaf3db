import type { Agent } from "@autograms/runtime";
import type { Store } from "../types.js";
import { changeThread, type MemoryChange } from "./change-thread.js";

export type Migration = MemoryChange;

/**
 * Moves a thread to node `node` of the agent's graph (`Agent.migrate`): typically a thread that
 * cannot resume on a new build of the agent. Its variables and history are kept; the move is a
 * turn without message or reply (change-thread.ts). Refused (AgentError `bad_migration`) when the
 * node cannot take the conversation. `takePrompts`: its frames take the prompts the agent sets now
 * (`Agent.promptChanges`).
 */
export function migrateThread(
  store: Store,
  agent: Agent,
  threadId: string,
  node: string,
  options: { takePrompts?: boolean } = {},
): Promise<Migration> {
  return changeThread(store, threadId, "move", (memory) => agent.migrate(memory, node, options));
}
