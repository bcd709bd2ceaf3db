import { AgentError, type Agent } from "@autograms/runtime";
import type { Store } from "../types.js";

export interface ThreadCheck {
  id: string;
  /** The agent could take the thread's next message. */
  resumable: boolean;
  /** Why not (the runtime's error code and message), or null. */
  problem: { code: string; message: string } | null;
}

/**
 * The runtime's resume rule applied to every thread of the agent: after an edit of the agent, the
 * threads that stand on a node that changed or is gone (`stale_memory`) are reported, and left
 * as they are, still resumable with the agent they were made with. Threads of other agents are
 * left out.
 */
export async function checkThreads(store: Store, agent: Agent): Promise<ThreadCheck[]> {
  const checks: ThreadCheck[] = [];
  for (const info of await store.listThreads()) {
    if (info.agent !== null && info.agent !== agent.graph.agent) continue;
    const { memory } = await store.load(info.id);
    let problem: ThreadCheck["problem"] = null;
    try {
      if (memory !== null) agent.checkMemory(memory);
    } catch (err) {
      if (!(err instanceof AgentError)) throw err;
      problem = { code: err.code, message: err.detail };
    }
    checks.push({ id: info.id, resumable: problem === null, problem });
  }
  return checks;
}
