import { AgentError, type Agent, type PromptChange } from "@autograms/runtime";
import type { Store } from "../types.js";

export interface ThreadCheck {
  id: string;
  /** The agent could take the thread's next message. */
  resumable: boolean;
  /** Why not (the runtime's error code and message), or null. */
  problem: { code: string; message: string } | null;
  /** Its frames that hold another prompt than the agent sets now (an edited `setPrompt`: `Agent.promptChanges`). */
  prompts: PromptChange[];
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
    let prompts: PromptChange[] = [];
    try {
      if (memory !== null) {
        // An ended conversation takes no prompt again.
        if (!memory.done) prompts = agent.promptChanges(memory);
        agent.checkMemory(memory);
      }
    } catch (err) {
      if (!(err instanceof AgentError)) throw err;
      problem = { code: err.code, message: err.detail };
    }
    checks.push({ id: info.id, resumable: problem === null, problem, prompts });
  }
  return checks;
}
