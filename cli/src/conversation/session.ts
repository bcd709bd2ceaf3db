import type { ReplyChunk, TraceSink } from "@autograms/runtime";

/** What a turn reports as it runs: its trace events, and the reply's text as it is written. */
export interface TurnListeners {
  trace: TraceSink | undefined;
  onText: ((chunk: ReplyChunk) => void) | undefined;
}

/** Where `chat` keeps a conversation between turns: nowhere, a memory file, or a thread of a store. */
export interface ChatSession {
  /** Set when the conversation goes on from before: what to say so, and the agent's last reply. */
  resumed: { note: string; lastReply: string | undefined } | null;
  /** One turn; `text` null is the agent's opening, which it speaks first. */
  reply(text: string | null, listeners: TurnListeners): Promise<{ reply: string | null; done: boolean }>;
  /** Drops the turn under way, if any, leaving the conversation at its last turn (Ctrl-C). */
  stop(): Promise<void>;
  close(): Promise<void>;
}
