import type { Agent } from "@autograms/runtime";
import type { Store } from "../types.js";
import { changeThread, type MemoryChange } from "./change-thread.js";

export type Migration = MemoryChange;

/**
 * Moves a thread to node `node` of the agent's graph (`Agent.migrate`): typically a thread that
 * cannot resume on a new build of the agent. Its variables and history are kept; the move is a
 * turn without message or reply (change-thread.ts). Refused (AgentError `bad_migration`) when the
 * node cannot take the conversation.
 */
export function migrateThread(store: Store, agent: Agent, threadId: string, node: string): Promise<Migration> {
  return changeThread(store, threadId, "move", (memory) => agent.migrate(memory, node));
}

/**
 * Sets variables of one frame of a thread's memory (`Agent.editVariables`), as a turn without
 * message or reply (change-thread.ts): fork the thread at a turn first to try a change beside
 * the original. Refused (AgentError `bad_input`) for a variable the frame lacks or a value that is
 * not JSON.
 */
export function editThreadVariables(
  store: Store,
  agent: Agent,
  threadId: string,
  frame: number,
  set: Record<string, unknown>,
): Promise<MemoryChange> {
  return changeThread(store, threadId, "change", (memory) => agent.editVariables(memory, frame, set));
}
