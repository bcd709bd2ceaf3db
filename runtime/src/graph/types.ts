/**
 * The graph format: the one contract between the compiler (which writes it) and the runtime
 * (which executes it). Field names follow the original AutoGRAMS node fields (snake_case) so a
 * graph converts to and from the original's spreadsheet format. `graph.schema.json` beside this
 * file is the JSON Schema of the same format; keep the two in step (a test checks that).
 */

import type { JsonValue } from "../json.js";

export type { JsonValue };

/** Source position, 1-based lines and columns (as editors and `file:line:col` messages show them). */
export interface Loc {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export type FunctionKind = "function" | "local_function" | "global_function";

export type ChatAction = "chat" | "chat_exact" | "chat_suffix";
export type ThoughtAction = "thought" | "thought_exact" | "thought_qa";
export type PromptAction = "set_prompt" | "append_prompt" | "set_user_prompt" | "append_user_prompt";
export type Action = ChatAction | ThoughtAction | PromptAction | FunctionKind | "transition" | "code";

export const CHAT_ACTIONS: readonly ChatAction[] = ["chat", "chat_exact", "chat_suffix"];
export const THOUGHT_ACTIONS: readonly ThoughtAction[] = ["thought", "thought_exact", "thought_qa"];
export const PROMPT_ACTIONS: readonly PromptAction[] = ["set_prompt", "append_prompt", "set_user_prompt", "append_user_prompt"];
export const FUNCTION_KINDS: readonly FunctionKind[] = ["function", "local_function", "global_function"];
export const ACTIONS: readonly Action[] = [
  ...CHAT_ACTIONS, ...THOUGHT_ACTIONS, ...PROMPT_ACTIONS, ...FUNCTION_KINDS, "transition", "code",
];

/** Fields every node may carry, whatever its action (docs/graph-format.md). */
export interface NodeFields {
  /** Unique, stable node name. */
  name: string;
  /**
   * Successors. Besides node names: `"return"` / `"return <expr>"`, `"quit"`, `"$var"` (dynamic),
   * `"X.*"` (first of X.a, X.b, ... whose boolean_condition holds, or by state-history scores),
   * `"X.n"` (X.1, X.2, ... by visit count). `"next"` never appears in a compiled graph.
   */
  transitions: string[];
  /**
   * Indices of `transitions` that the compiler made from the code's flow (the statement after,
   * where the author wrote no transition or `"next"`), not written by the author. A node's
   * identity, which decides whether a saved conversation waiting at it resumes on an edited
   * graph, leaves their targets out: what follows is whatever the new code says.
   */
  implicit_transitions?: number[];
  /** Variable that receives the node's output (the original's `x=` instruction prefix). */
  assign?: string;
  /**
   * Evaluator code the node runs each time it is entered, however it is entered (the statement
   * before, a transition by name, `$var`, `X.*`, `X.n`, an interjection), before its action: the
   * compiler computes placeholder values here (`let _tmp_ae2d = order.join(", ")`).
   */
  setup?: string;
  transition_question?: string;
  transition_choices?: string[];
  question_prompt?: string;
  /** Evaluator expression; selects this node in an `X.*` wildcard. */
  boolean_condition?: string;
  user_instruction_transitions?: string[];
  transition_probs?: number[];
  state_category?: string;
  conv_scope?: string;
  transition_context?: number;
  condition_interjection?: string;
  probability_interjection?: number;
  user_interjection?: string;
  example_interjection?: string;
  prerequisite_states?: string[];
  blocking_states?: string[];
  up_weight_states?: string[];
  down_weight_states?: string[];
  required_revisit?: string[];
  reply_start?: string;
  instruction_template?: string;
  notes?: string;
  instruction_short?: string;
  conv_context?: string;
  /** Where the node comes from in the agent source; absent for nodes made by hand or imported. */
  loc?: Loc;
  /** What construct the compiler made the node from (`exec_node`, `code`, `if`, `while`, `for`, `return`, ...). */
  def_type?: string;
}

/** chat / chat_suffix / thought / thought_qa: the instruction is for the model. */
export interface ModelNode extends NodeFields {
  action: "chat" | "chat_suffix" | "thought" | "thought_qa";
  instruction: string;
  /**
   * Names of graph `tools` offered to the model through native tool calls: the runtime runs the
   * calls the model makes and gives it the results until it answers in text.
   */
  tools?: string[];
}

/** chat_exact / thought_exact: the instruction is the exact text. */
export interface ExactNode extends NodeFields {
  action: "chat_exact" | "thought_exact";
  instruction: string;
}

export interface PromptNode extends NodeFields {
  action: PromptAction;
  instruction: string;
}

/** A call: `instruction` is `f(arg, ...)`, each argument an evaluator expression. */
export interface FunctionNode extends NodeFields {
  action: FunctionKind;
  instruction: string;
}

/** One evaluator statement or expression (the original's `python_function`). */
export interface CodeNode extends NodeFields {
  action: "code";
  instruction: string;
}

/** Does nothing but branch; also the entry node of each function. */
export interface TransitionNode extends NodeFields {
  action: "transition";
  instruction?: string;
}

/**
 * A node of a custom action (one of the graph's `actions`, see `defineAction`): the common fields,
 * an optional instruction, and the fields the action declares, checked against its JSON Schemas.
 */
export interface CustomNode extends NodeFields {
  /** A key of the graph's `actions`; never the name of a built-in action. */
  action: string & { readonly customAction?: true };
  instruction?: string;
  [field: string]: JsonValue | Loc | undefined;
}

export type BuiltinNode = ModelNode | ExactNode | PromptNode | FunctionNode | CodeNode | TransitionNode;
export type GraphNode = BuiltinNode | CustomNode;

export interface FunctionInfo {
  kind: FunctionKind;
  params: string[];
  /**
   * How many leading parameters a call must pass; absent: all of them. The ones after may be
   * left out: they take their value from `defaults`, else null.
   */
  required?: number;
  /** Values of the parameters that have a default, by name. */
  defaults?: Record<string, JsonValue>;
  /** Name of the function's entry node. */
  entry: string;
  loc?: Loc;
}

/** A function the agent imports from another module; code nodes call it by `name`. */
export interface ToolInfo {
  /** Module specifier as written in the agent file (relative to the agent file). */
  module: string;
  /** Exported name in that module (`default` for a default import). */
  export: string;
}

/**
 * The built-in actions a custom action may take as its `base`: the behaviour it inherits for the
 * hooks it does not give (calls and code are statements of the language, not bases).
 */
export type BaseAction = ChatAction | ThoughtAction | PromptAction | "transition";
export const BASE_ACTIONS: readonly BaseAction[] = [...CHAT_ACTIONS, ...THOUGHT_ACTIONS, ...PROMPT_ACTIONS, "transition"];

/**
 * A custom action the graph's nodes use: where its implementation comes from (as for tools), and
 * what the compiler read from its `defineAction`, so a graph is checked without running any code
 * and an implementation given to the Agent is checked against what the graph was compiled with.
 */
export interface ActionInfo {
  /** Module specifier as written in the agent file (relative to the agent file). */
  module: string;
  /** Exported name in that module (`default` for a default import). */
  export: string;
  base?: BaseAction;
  /** The extra node fields the action accepts: a JSON Schema per field. */
  fields?: Record<string, JsonValue>;
  /** The fields among `fields` every node of the action must have. */
  required?: string[];
}

export interface Graph {
  format: "autograms-graph";
  version: 1;
  source?: { file: string; sha256: string };
  /** Name of the agent class. */
  agent: string;
  /** Variables of the global (bottom) scope with their initial values (the class fields). */
  globals: Record<string, JsonValue>;
  functions: Record<string, FunctionInfo>;
  tools?: Record<string, ToolInfo>;
  /** Custom actions, by action name (what nodes write in `action`). */
  actions?: Record<string, ActionInfo>;
  /** Start node; when absent, `start1` if present, else the first node. */
  start?: string;
  nodes: GraphNode[];
}
