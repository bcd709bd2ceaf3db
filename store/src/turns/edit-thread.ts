import type { Agent } from "@autograms/runtime";
import type { Store } from "../types.js";
import { changeThread, type MemoryChange } from "./change-thread.js";

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
