/**
 * What one turn did, gathered from its trace events: the nodes it passed through, the node that
 * replied (with its source line), the tools called, its time and tokens. Expectations are scored
 * on this record, and reports show it.
 */
import type { JsonValue } from "@autograms/graph";
import type { Memory } from "../memory/types.js";
import { replyOf, type TraceEvent, type TraceSink } from "../trace/events.js";

export interface ToolCallRecord {
  name: string;
  /** The arguments as parsed; the text as written when it is not JSON. */
  args: JsonValue;
}

export interface TurnRecord {
  /** 1 for the agent's opening, as `threads show` numbers turns. */
  turn: number;
  user: string;
  reply: string | null;
  /** The node whose output was the reply; null when the turn gave none. */
  replyNode: string | null;
  /** The source line it is written at (`agent.ts:42`), when the graph has one. */
  replyAt: string | null;
  /** Nodes the turn passed through, in order (a node once for each arrival). */
  path: string[];
  tools: ToolCallRecord[];
  /** Variables visible after the turn: main's, with the current function's over them. */
  vars: Record<string, JsonValue>;
  ms: number;
  tokens: { total: number; estimated: boolean };
  done: boolean;
  /** The turn failed: its error's message. */
  error?: string;
}

/** Collects a turn's trace; `finish` gives its record. */
export class TurnTrace {
  readonly path: string[] = [];
  readonly tools: ToolCallRecord[] = [];
  replyNode: string | null = null;

  readonly sink: TraceSink = (event: TraceEvent) => {
    if (this.path[this.path.length - 1] !== event.node) this.path.push(event.node);
    if (replyOf(event) !== undefined) this.replyNode = event.node;
    if (event.kind === "tool_call") this.tools.push({ name: event.tool, args: parsed(event.arguments) });
  };
}

/** The variables visible where the conversation stands. */
export function visibleVars(memory: Memory): Record<string, JsonValue> {
  const main = memory.stack[0]?.vars ?? {};
  const top = memory.stack[memory.stack.length - 1]?.vars ?? {};
  return { ...main, ...top };
}

function parsed(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}
