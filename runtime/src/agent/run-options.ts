/** What a run (a reply, a call) is given, and what a reply gives back. */
import type { Memory } from "../memory/types.js";
import type { MemoryDelta } from "../memory/delta.js";
import type { ChatModel, ModelSettings } from "../model/types.js";
import type { TraceSink } from "../trace/events.js";
import type { PauseHook } from "./performer.js";
import type { ActionContext } from "../language/actions.js";
import type { ReplyChunk } from "./reply-stream.js";

export interface RunOptions {
  /** Receives one event per step (see `TraceEvent`). */
  trace?: TraceSink;
  /** Awaited before each node runs (see `PausePoint`): how a debugger stops a run at a node. */
  pause?: PauseHook;
  /**
   * Milliseconds the whole run (a reply, a call) may take, model calls, their retries and tools
   * included; past it the run fails with AgentError `deadline` and the memory given to it stays
   * valid. No deadline by default.
   */
  deadlineMs?: number;
  /** Aborting it ends the run the same way (code `deadline`, "cancelled"). */
  signal?: AbortSignal;
  /**
   * The time of this run, in milliseconds since 1970, instead of reading the agent's clock: what
   * `Date.now()` returns in its code. A replay passes the recorded time.
   */
  now?: number;
  /**
   * Receives the reply's text while it is written: `delta`s, and a `reset` when the text sent so
   * far for the node is withdrawn (the answer is generated again). When the run ends with a
   * reply, the deltas for the replying node since its last reset add up to the reply exactly.
   * A model that does not stream gives the whole text as one delta once it is accepted. Thoughts,
   * choices and simulated users are never sent. See docs/semantics.md, "Streaming".
   */
  onText?: (chunk: ReplyChunk) => void;
  /**
   * The first reply of a conversation only (no memory given): starting values for some of the
   * agent's globals, as an evaluation case sets a conversation up. Each must be one of the graph's
   * globals and each value plain JSON; else an AgentError `bad_input` says why.
   */
  globals?: Record<string, unknown>;
  /** The conversation (a thread's id) this turn belongs to: traces report it as `gen_ai.conversation.id`. */
  conversationId?: string;
  /** This run's model instead of the agent's: a replay answers from a recording (ReplayModel). */
  model?: ChatModel;
  /**
   * The model and sampling of this run, over those the model was made with (`ChatModel.withSettings`;
   * a model without it refuses them: AgentError `bad_input`). The events of the model calls they
   * applied to carry them (`settings`), so that a replay can give them again.
   */
  modelSettings?: ModelSettings;
  /** Tools that stand in for the agent's in this run, by name: a replay gives the recorded results instead of acting again. */
  tools?: Record<string, (...args: any[]) => unknown>;
  /**
   * Hooks that stand in for those of the agent's custom actions in this run, by action name: a
   * replay gives each hook's recorded result back instead of running it again. A stand-in for a
   * hook the action does not have is not used.
   */
  hooks?: Record<
    string,
    Partial<Record<"instruction" | "transition" | "output", (ctx: ActionContext<any>) => unknown>>
  >;
}

export interface ReplyResult {
  /** The agent's reply; null when the conversation ended (`quit`) without one. */
  reply: string | null;
  memory: Memory;
  /** The conversation reached `quit`; further replies are refused. */
  done: boolean;
  /**
   * What this reply changed, as a small JSON value: `applyDelta(memoryPassedIn, delta)` equals
   * `memory` (for the first reply, `applyDelta(undefined, delta)`), so a store can append deltas.
   */
  delta: MemoryDelta;
}
