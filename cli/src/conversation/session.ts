import type { TraceSink } from "@autograms/runtime";

/** Where `chat` keeps a conversation between turns: nowhere, a memory file, or a thread of a store. */
export interface ChatSession {
  /** Set when the conversation goes on from before: what to say so, and the agent's last reply. */
  resumed: { note: string; lastReply: string | undefined } | null;
  /** One turn; `text` null is the agent's opening, which it speaks first. */
  reply(text: string | null, trace: TraceSink | undefined): Promise<{ reply: string | null; done: boolean }>;
  /** Drops the turn under way, if any, leaving the conversation at its last turn (Ctrl-C). */
  stop(): Promise<void>;
  close(): Promise<void>;
}
