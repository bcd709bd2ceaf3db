import type { Agent, Memory } from "@autograms/runtime";
import { StoreError } from "../errors.js";
import type { Store, TurnRecord } from "../types.js";

export interface Migration {
  /** The turn that records the move: no message and no reply, the moved memory. */
  turn: TurnRecord;
  memory: Memory;
}

/**
 * Moves a thread to node `node` of the agent's graph (`Agent.migrate`): typically a thread that
 * cannot resume on a new build of the agent. Its variables and history are kept; the move is
 * committed as a turn without message or reply, so the thread's history shows it and a fork
 * from before it still has the old memory. Refused (AgentError `bad_migration`) when the node
 * cannot take the conversation; a thread that is running is refused as any busy thread is.
 */
export async function migrateThread(store: Store, agent: Agent, threadId: string, node: string): Promise<Migration> {
  const lease = await store.acquire(threadId, { create: false, policy: "reject" });
  let committed = false;
  try {
    const { memory } = await store.load(threadId);
    if (memory === null)
      throw new StoreError("bad_request", `thread ${threadId} has no turn yet: there is nothing to move`);
    const startedAt = Date.now();
    const moved = agent.migrate(memory, node);
    const turn = await store.commit(lease, {
      messageId: null,
      user: null,
      reply: null,
      memory: moved.memory,
      delta: moved.delta,
      startedAt,
    });
    committed = true;
    return { turn, memory: moved.memory };
  } finally {
    if (!committed) await store.release(lease).catch(() => {});
  }
}
