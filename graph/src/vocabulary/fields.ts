/**
 * The node fields of the graph format, each written once: what its value is, whether every node
 * has it, how the agent language writes it and where the original's spreadsheet keeps it. The
 * node types (`NodeFields`), the JSON Schema, the agent language's field types, the compiler's
 * checks and the spreadsheet's columns are derived from this table; its docs are the fields' docs
 * wherever those types are shown.
 */
import type { JsonValue } from "../json.js";

/** Source position, 1-based lines and columns (as editors and `file:line:col` messages show them). */
export interface Loc {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/**
 * What a field's value is. Each kind has one TypeScript type (`ValueType` below), one JSON Schema
 * (schema.ts), one check in the compiler and one spreadsheet cell format.
 */
export type ValueKind =
  /** A node name: non-empty text. */
  | "name"
  /** A built-in action's name, or a custom action's (the graph's `actions`). */
  | "action"
  /** Any text (for the model, the user, the reader). */
  | "text"
  /** Evaluator code (docs/sandbox.md). */
  | "code"
  /** A variable name. */
  | "variable"
  /** Transition targets: node names and the special targets (targets.ts); at least one. */
  | "targets"
  /** Node names. */
  | "nodes"
  /** Texts, such as one answer per transition. */
  | "texts"
  /** Numbers of at least 0. */
  | "numbers"
  /** Positions in the node's `transitions` (from 0), each once. */
  | "indices"
  /** A whole number of at least 0. */
  | "count"
  /** A number from 0 to 1. */
  | "probability"
  /** Distinct names of the graph's `tools`; at least one. */
  | "tools"
  /** A source position. */
  | "loc"
  /** A JSON Schema (draft 2020-12): a JSON object. */
  | "json_schema"
  /** Texts by key: a JSON object whose values are strings. */
  | "text_map";

/** The TypeScript type of a value of kind `K`. */
export type ValueType<K extends ValueKind> = K extends "loc"
  ? Loc
  : K extends "json_schema"
    ? { [key: string]: JsonValue }
    : K extends "text_map"
      ? Record<string, string>
      : K extends "numbers" | "indices"
        ? number[]
        : K extends "count" | "probability"
          ? number
          : K extends "targets" | "nodes" | "texts" | "tools"
            ? string[]
            : string;

export interface FieldSpec {
  value: ValueKind;
  /** Every node has it. */
  required?: true;
  /**
   * Its type depends on the node's action, so the node types write it per kind of node
   * (types.ts): `action`, `instruction`, `tools`.
   */
  perAction?: true;
  /**
   * How an agent writes it in `exec_node` or a shorthand's options: a literal (the default), a
   * template literal whose `${...}` placeholders become `$variables`, or not at all (the compiler
   * writes it).
   */
  language?: "literal" | "template" | false;
  /**
   * Where the original's spreadsheet keeps it: a column named as the field (the default), none,
   * or one lettered column per item (`transition_choice_a`, `transition_choice_b`, ...).
   */
  sheet?: "column" | false | { lettered: string };
}

/**
 * Every node field, in the order a graph's nodes list them. Each property's doc is the field's
 * doc in the node types and the agent language.
 */
export const NODE_FIELDS = {
  /**
   * Unique, stable node name. In an agent: omit it (or write "auto") for an automatic name.
   */
  name: { value: "name", required: true },
  /** What the node does: a built-in action, or one of the graph's custom `actions`. */
  action: { value: "action", required: true, perAction: true },
  /** Variable that receives the node's output (the original's `x=` instruction prefix). */
  assign: { value: "variable", language: false },
  /**
   * Evaluator code the node runs each time it is entered, however it is entered (the statement
   * before, a transition by name, `$var`, `X.*`, `X.n`, an interjection), before its action: the
   * compiler computes placeholder values here (`let _tmp_ae2d = order.join(", ")`).
   */
  setup: { value: "code", language: false },
  /** What the action works on: text for the model, the exact reply, a call, code (per action). */
  instruction: { value: "text", perAction: true, language: "template" },
  /**
   * Successors. Besides node names: `"return"` / `"return <expr>"`, `"quit"`, `"$var"` (dynamic),
   * `"X.*"` (first of X.a, X.b, ... whose boolean_condition holds, or by state-history scores),
   * `"X.n"` (X.1, X.2, ... by visit count). In an agent also `"next"` (the following statement),
   * which never appears in a compiled graph.
   */
  transitions: { value: "targets", required: true },
  /**
   * Indices of `transitions` that the compiler made from the code's flow (the statement after,
   * where the author wrote no transition or `"next"`), not written by the author. A node's
   * identity, which decides whether a saved conversation waiting at it resumes on an edited
   * graph, leaves their targets out: what follows is whatever the new code says.
   */
  implicit_transitions: { value: "indices", language: false },
  /** The question the model answers to choose among several transitions; `$variables` are filled in. */
  transition_question: { value: "text", language: "template" },
  /** The answer for each transition, one for one. */
  transition_choices: { value: "texts", sheet: { lettered: "transition_choice" } },
  /** The preamble of the prompt that asks the transition question. */
  question_prompt: { value: "text" },
  /** Evaluator expression; selects this node in an `X.*` wildcard. */
  boolean_condition: { value: "code" },
  /** What a simulated user is told to say for each transition, one for one. */
  user_instruction_transitions: { value: "texts", sheet: { lettered: "user_instruction_transition" } },
  /** How likely a simulated conversation takes each transition. */
  transition_probs: { value: "numbers" },
  /** A label stored on each turn made at the node; `conv_scope` selects turns by it. */
  state_category: { value: "text" },
  /** Only past turns of this `state_category` are in the node's prompt. */
  conv_scope: { value: "text" },
  /** How many past turn pairs the transition question shows the model (0: all). */
  transition_context: { value: "count" },
  /** Makes the node an interjection: the condition the model is asked about after the user answers. */
  condition_interjection: { value: "text" },
  /** How likely a simulated user makes the interjection. */
  probability_interjection: { value: "probability" },
  /** What a simulated user is told to say to make the interjection. */
  user_interjection: { value: "text" },
  /** Example text put before the interjection question. */
  example_interjection: { value: "text" },
  /** For `X.*` by state history: states that must have been visited. */
  prerequisite_states: { value: "nodes" },
  /** For `X.*` by state history: states that must not have been visited. */
  blocking_states: { value: "nodes" },
  /** For `X.*` by state history: visited states that favour this node. */
  up_weight_states: { value: "nodes" },
  /** For `X.*` by state history: visited states that disfavour this node. */
  down_weight_states: { value: "nodes" },
  /** A call is made only if these states were visited since the call was last made. */
  required_revisit: { value: "nodes" },
  /** The text the reply starts from in the prompt (the default says the agent's name). */
  reply_start: { value: "text" },
  /** The prompt template of the node (`<last_response>`, `<instruction>`, `<agent_name>`). */
  instruction_template: { value: "text" },
  /** Notes for readers; unused at run time. */
  notes: { value: "text" },
  /**
   * A thought's answer as data: the JSON Schema (draft 2020-12) its answer must match. The model
   * is asked for JSON (through its structured-output feature where it has one) and the node's
   * output is the parsed value; an answer that does not match is asked for again
   * (`generationAttempts`), then fails the node. Thought nodes only.
   */
  schema: { value: "json_schema" },
  /** A short form of the instruction for pictures; unused at run time. */
  instruction_short: { value: "text" },
  /** Kept from the original; unused at run time. */
  conv_context: { value: "text" },
  /**
   * Names of graph `tools` offered to the model through native tool calls (chat, chat_suffix,
   * thought and thought_qa nodes): the runtime runs the calls the model makes and gives it the
   * results until it answers in text.
   */
  tools: { value: "tools", perAction: true, sheet: false },
  /** What construct the compiler made the node from (`exec_node`, `code`, `if`, `while`, `for`, `return`, ...). */
  def_type: { value: "text", language: false },
  /**
   * The original's Python of this node's code, by field (`instruction`, `boolean_condition`,
   * `transitions/1`), where a spreadsheet's import translated it into the evaluator's language:
   * an export in the original's format writes it back as long as the field holds its translation.
   * Unused at run time; a column of this format's own sheets (`--format autograms`).
   */
  python: { value: "text_map", language: false },
  /** Where the node comes from in the agent source; absent for nodes made by hand or imported. */
  loc: { value: "loc", language: false, sheet: false },
} as const satisfies Record<string, FieldSpec>;

export type NodeFieldName = keyof typeof NODE_FIELDS;

/**
 * Every field's value, typed (all present). Mapped over the table's own keys so that each
 * property keeps its doc (as do the Pick, Omit and Partial of it below).
 */
export type FieldValues = { -readonly [F in keyof typeof NODE_FIELDS]: ValueType<(typeof NODE_FIELDS)[F]["value"]> };
type Where<P> = { [F in NodeFieldName]: (typeof NODE_FIELDS)[F] extends P ? F : never }[NodeFieldName];
type PerAction = Where<{ perAction: true }>;
type RequiredField = Where<{ required: true }>;

/** The fields whose type does not depend on the action, as the node types hold them. */
export type CommonFieldValues = Pick<FieldValues, Exclude<RequiredField, PerAction>> &
  Partial<Omit<FieldValues, RequiredField | PerAction>>;

/** The fields an agent writes (all optional there), with the types their values have. */
export type WrittenFieldValues = Partial<Omit<FieldValues, Where<{ language: false }>>>;

/** A field's spec with its defaults written out. */
export interface Field {
  name: NodeFieldName;
  value: ValueKind;
  required: boolean;
  perAction: boolean;
  language: "literal" | "template" | false;
  sheet: "column" | false | { lettered: string };
}

/** Every node field, in order, with its defaults written out. */
export const FIELDS: readonly Field[] = (Object.keys(NODE_FIELDS) as NodeFieldName[]).map((name) => {
  const spec: FieldSpec = NODE_FIELDS[name];
  return {
    name,
    value: spec.value,
    required: spec.required ?? false,
    perAction: spec.perAction ?? false,
    language: spec.language ?? "literal",
    sheet: spec.sheet ?? "column",
  };
});

export type FieldsOfKind<K extends ValueKind> = Where<{ value: K }>;

/** The fields whose value is of kind `kind`, in order. */
export function fieldsOfKind<K extends ValueKind>(kind: K): readonly FieldsOfKind<K>[] {
  return FIELDS.filter((f) => f.value === kind).map((f) => f.name as FieldsOfKind<K>);
}

/** Fields every node may have, whatever its action; a custom action's fields are others. */
export const NODE_FIELD_NAMES: ReadonlySet<string> = new Set(FIELDS.map((f) => f.name));
