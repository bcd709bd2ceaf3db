/**
 * The graph format: the one contract between the compiler (which writes it) and the runtime
 * (which executes it). Field names follow the original AutoGRAMS node fields (snake_case) so a
 * graph converts to and from the original's spreadsheet format. The node fields and the actions
 * are the vocabulary's (vocabulary/), from which schema.ts derives the JSON Schema too.
 */
import type { JsonValue } from "./json.js";
import type {
  BaseAction,
  CommonFieldValues,
  EffectFlag,
  ExactAction,
  FieldValues,
  FunctionKind,
  Loc,
  ModelAction,
  PromptAction,
} from "./vocabulary/index.js";

export type { JsonValue };
export type {
  Action,
  BaseAction,
  ChatAction,
  ExactAction,
  FunctionKind,
  Loc,
  ModelAction,
  PromptAction,
  ThoughtAction,
} from "./vocabulary/index.js";

/**
 * Fields every node may carry, whatever its action (docs/graph-format.md): the vocabulary's node fields
 * (vocabulary/fields.ts, where each is documented) but those whose type depends on the action.
 */
export interface NodeFields extends CommonFieldValues {}

/** chat / chat_suffix / thought / thought_qa: the instruction is for the model. */
export interface ModelNode extends NodeFields, Partial<Pick<FieldValues, "tools">> {
  action: ModelAction;
  instruction: string;
}

/** chat_exact / thought_exact: the instruction is the exact text. */
export interface ExactNode extends NodeFields {
  action: ExactAction;
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
  /**
   * The action has a `transition` hook, which picks among several transitions: its nodes need
   * no transition_question and transition_choices (when they have them, a hook that returns null
   * lets the model choose with them).
   */
  decides?: true;
  /**
   * What its instruction hook's results may change besides the node's output (each absent when
   * not declared): the flags of `EFFECT_FLAGS`, and `assign`, the variables it may write.
   */
  effects?: ActionEffects;
}

export type ActionEffects = { [F in EffectFlag]?: true } & { assign?: string[] };

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
