import type { GraphNode, Loc } from "@autograms/graph";

/** Stable codes of everything the runtime can refuse or fail at. */
export type AgentErrorCode =
  | "invalid_graph"
  | "missing_tool"
  | "missing_action"
  | "action_failed"
  | "bad_input"
  | "bad_memory"
  | "bad_delta"
  | "tampered_memory"
  | "foreign_memory"
  | "stale_memory"
  | "bad_migration"
  | "conversation_over"
  | "undefined_variable"
  | "sandbox"
  | "model"
  | "invalid_output"
  | "bad_call"
  | "bad_transition"
  | "no_condition_held"
  | "return_outside_function"
  | "chat_in_call"
  | "step_limit"
  | "recursion_limit"
  | "tool_limit"
  | "deadline";

export interface AgentErrorInit {
  node?: string;
  loc?: Loc;
  file?: string;
  cause?: unknown;
}

/**
 * The one error class of the runtime. When a node is concerned, `node` names it and `location`
 * points at it (`file:line:column`), so a message reads like a compiler diagnostic.
 */
export class AgentError extends Error {
  override name = "AgentError";
  readonly code: AgentErrorCode;
  readonly node: string | undefined;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** `file:line:column` of the node, when it has a `loc`. */
  readonly location: string | undefined;
  /** The message without the location prefix. */
  readonly detail: string;

  constructor(code: AgentErrorCode, detail: string, init: AgentErrorInit = {}) {
    const location = init.loc ? `${init.file ?? "<graph>"}:${init.loc.line}:${init.loc.column}` : undefined;
    const where = init.node === undefined ? "" : `node '${init.node}'${location ? "" : " (no source location)"}: `;
    super(
      `${location ? `${location}: ` : ""}${where}${detail}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.code = code;
    this.detail = detail;
    this.node = init.node;
    this.file = location ? (init.file ?? "<graph>") : undefined;
    this.line = init.loc?.line;
    this.column = init.loc?.column;
    this.location = location;
  }
}

/** An error about one node of a graph whose source file is `file`. */
export function nodeError(
  code: AgentErrorCode,
  node: GraphNode,
  file: string | undefined,
  detail: string,
  cause?: unknown,
): AgentError {
  return new AgentError(code, detail, { node: node.name, loc: node.loc, file, cause });
}
