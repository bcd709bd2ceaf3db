/**
 * A change to a thread's memory made without a message (a move to another node, variables set by
 * hand), committed as a turn without message or reply: the thread's history shows it, and a fork
 * from before it still has the old memory. A thread that is running is refused as any busy
 * thread is; nothing is committed when the change is refused.
 */
import type { Agent, Memory, MemoryDelta } from "@autograms/runtime";
import { StoreError } from "../errors.js";
import type { Store, TurnRecord } from "../types.js";

export interface MemoryChange {
  /** The turn that records the change: no message and no reply, the changed memory. */
  turn: TurnRecord;
  memory: Memory;
}

async function changeThread(
  store: Store,
  threadId: string,
  what: string,
  change: (memory: Memory) => { memory: Memory; delta: MemoryDelta },
): Promise<MemoryChange> {
  const lease = await store.acquire(threadId, { create: false, policy: "reject" });
  let committed = false;
  try {
    const { memory } = await store.load(threadId);
    if (memory === null)
      throw new StoreError("bad_request", `thread ${threadId} has no turn yet: there is nothing to ${what}`);
    const startedAt = Date.now();
    const changed = change(memory);
    const turn = await store.commit(lease, {
      messageId: null,
      user: null,
      reply: null,
      memory: changed.memory,
      delta: changed.delta,
      startedAt,
    });
    committed = true;
    return { turn, memory: changed.memory };
  } finally {
    if (!committed) await store.release(lease).catch(() => {});
  }
}

/**
 * Sets variables of one frame of a thread's memory (`Agent.editVariables`): fork the thread at a
 * turn first to try a change beside the original. Refused (AgentError `bad_input`) for a variable
 * the frame lacks or a value that is not JSON.
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

export type Migration = MemoryChange;

/**
 * Moves a thread to node `node` of the agent's graph (`Agent.migrate`): typically a thread that
 * cannot resume on a new build of the agent. Its variables and history are kept. Refused
 * (AgentError `bad_migration`) when the node cannot take the conversation. `takePrompts`: its
 * frames take the prompts the agent sets now (`Agent.promptChanges`).
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
