/**
 * The saved state of a conversation: plain JSON, versioned, tied to the graph it was made with.
 * Only what later turns need is kept (no per-step log, no copies of prompts), so its size grows
 * with the transcript and nothing else.
 */
import type { FunctionKind, JsonValue } from "@autograms/graph";

export const MEMORY_FORMAT = "autograms-memory";
export const MEMORY_VERSION = 2;

export type Scope = "main" | FunctionKind;

/** One exchange of a chat or thought node: what it consumed from the user and what it said. */
export interface Turn {
  node: string;
  kind: "chat" | "thought";
  /** The reply (chat) or the internal answer (thought). */
  agent: string;
  /** The user message this node consumed, if it consumed one. */
  user?: string;
  /** The instruction, kept only when later prompts repeat it (thoughts, and chats without a user message). */
  instruction?: string;
  /** The node's `state_category`, for `conv_scope`. */
  category?: string;
}

/** One scope of the call stack; the bottom one is `main`, which holds the globals. */
export interface Frame {
  scope: Scope;
  /** The function this frame runs (absent for main). */
  function?: string;
  /**
   * Where this frame stands: for the top frame between turns, the chat node awaiting the user;
   * for a lower frame, the calling node that receives the return value. `""` before the first node.
   */
  node: string;
  /** Identity of `node` (a hash of what it does), so an edited graph can tell whether it still holds. */
  id: string;
  vars: Record<string, JsonValue>;
  turns: Turn[];
  prompt: string;
  userPrompt: string;
  /**
   * The user message that was waiting when this function was called. If the function consumes
   * it and then drops its turns, the caller gets it back rather than losing it from its history.
   */
  carried?: string;
}

export interface MemoryBody {
  format: typeof MEMORY_FORMAT;
  version: typeof MEMORY_VERSION;
  graph: { agent: string; hash: string };
  /** Number of completed `reply()` calls. */
  turn: number;
  /** The conversation reached `quit`. */
  done: boolean;
  stack: Frame[];
  /** How often each node ran (for `X.n`, state-history scores and `required_revisit`). */
  visits: Record<string, number>;
}

export interface Memory extends MemoryBody {
  /** Hash of everything else, so memory edited outside the runtime is refused. */
  checksum: string;
}
