/** The API's JSON as the page reads it (the server's routes and run-events.ts say what is sent). */
import type { ToolCallShown } from "./tool-calls.js";
import type { Usage } from "./usage.js";

export interface Loc {
  line: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
}
export interface GraphNode {
  name: string;
  action: string;
  instruction?: string;
  loc?: Loc;
}
export interface Graph {
  agent?: string;
  nodes: GraphNode[];
  source?: { file: string };
}
export interface AgentInfo {
  name: string;
  graph: Graph;
  /** The last build (`serve --watch`): a failed one leaves the last good one served. */
  build: { ok: boolean; at: number; watching: boolean; message?: string; diagnostics?: string };
}

export interface ThreadInfo {
  id: string;
  title: string | null;
  version: number;
  done: boolean;
  updatedAt: number;
  forkedFrom: { id: string; turn: number } | null;
  running: unknown | null;
  /** Why it cannot resume on the agent served now (an edit changed where it stands), else null. */
  stale?: string | null;
  /** Its turns' tokens (GET /api/threads/:id only). */
  usage?: Usage;
  /** The model settings chosen for its next messages (GET /api/threads/:id only); null: the server's. */
  settings?: ModelSettings | null;
}

/** A thread's choice of model and sampling (routes/settings.ts). */
export interface ModelSettings {
  model?: string;
  temperature?: number;
  maxTokens?: number;
}

export interface Change {
  node?: string;
  name: string;
  before?: unknown;
  after?: unknown;
}
export interface Turn {
  seq: number;
  user: string | null;
  reply: string | null;
  status: string;
  changes?: Change[];
  trace?: string[];
  usage?: Usage;
  /** The model settings its model calls ran with, when the thread had some. */
  settings?: ModelSettings;
  /** The tools it called, in order. */
  toolCalls?: ToolCallShown[];
}
export interface ThreadView {
  thread: ThreadInfo;
  turns: Turn[];
}

export interface Frame {
  vars: Record<string, unknown>;
  scope?: string;
  function?: string;
  node?: string;
}
export interface Memory {
  stack: Frame[];
}

export type RunEvent =
  | { type: "run-start"; turn: number; user: string | null }
  | { type: "step"; event: { node: string; kind?: string } }
  | { type: "text-delta"; node: string; delta: string }
  | { type: "text-reset"; node: string }
  | { type: "run-finish"; turn: number; reply: string | null; done: boolean }
  | { type: "run-error"; code: string; message: string };
