import type { Agent, Memory, PromptChange, ReplyChunk, RunOptions, TraceSink } from "@autograms/runtime";
import type { TurnPlayer } from "@autograms/server";

/**
 * What a turn reports as it runs: its trace events, and the reply's text as it is written; and
 * `pause`, awaited before each step, where a long turn lets the process hear a signal.
 */
export interface TurnListeners {
  trace: TraceSink | undefined;
  onText: ((chunk: ReplyChunk) => void) | undefined;
  pause?: RunOptions["pause"];
}

/**
 * A build of the agent that turns are played on: in this thread, or (`chat --watch`) by `player`
 * in a worker thread that loaded the agent's modules, `agent` standing in for it here (its graph:
 * the stale check, the name).
 */
export interface ChatBuild {
  agent: Agent;
  player?: TurnPlayer;
  close(): Promise<void>;
}

/** Where `chat` keeps a conversation between turns: nowhere, a memory file, or a thread of a store. */
export interface ChatSession {
  /** Set when the conversation goes on from before: what to say so, and the agent's last reply. */
  resumed: { note: string; lastReply: string | undefined } | null;
  /** Set when the saved conversation could not resume on the agent and `--on-stale restart` began it again: why. */
  restarted?: string;
  /** One turn on `build`; `text` null is the agent's opening, which it speaks first. */
  reply(
    build: ChatBuild,
    text: string | null,
    listeners: TurnListeners,
  ): Promise<{ reply: string | null; done: boolean }>;
  /**
   * The conversation on this build of the agent: why it cannot resume (`stale_memory`), or null
   * when it can; and where it keeps a prompt the build sets otherwise (an edited setPrompt).
   */
  check(agent: Agent): Promise<BuildCheck>;
  /** Drops the turn under way, if any, leaving the conversation at its last turn (Ctrl-C). */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export interface BuildCheck {
  problem: string | null;
  /** Where the conversation is told how it takes the new prompts (a thread: threads migrate). */
  prompts: { changes: PromptChange[]; take?: string };
}

/** The conversation's memory checked against a build (`ChatSession.check`). */
export function checkBuild(agent: Agent, memory: Memory | null, take?: string): BuildCheck {
  const changes = memory === null || memory.done ? [] : agent.promptChanges(memory);
  return { problem: staleProblem(agent, memory), prompts: { changes, ...(take === undefined ? {} : { take }) } };
}

/** The stale_memory problem of this memory on this agent, or null (other errors are thrown). */
export function staleProblem(agent: Agent, memory: Memory | null): string | null {
  return memory === null ? null : agent.staleProblem(memory);
}
