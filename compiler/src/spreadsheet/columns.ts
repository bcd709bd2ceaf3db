/**
 * The columns of the original's spreadsheet format (its `EXPECTED_FIELDS`, in its order) and how
 * each maps to a graph node field. Shared by the importer and the exporter so the two agree.
 */
import type { NodeFields } from "@autograms/runtime";

/** How a cell's text becomes a field value. */
export type CellKind =
  | "text"
  /** Comma-separated names (commas inside parentheses do not split: `return f(a, b)`). */
  | "list"
  | "numbers"
  | "count"
  | "probability";

/** A column that holds one node field. */
export interface FieldColumn {
  kind: "field";
  field: keyof NodeFields | "action" | "instruction" | "assign";
  cell: CellKind;
}

/** `transition_choice_a`, `transition_choice_b`, ...: one list field spread over lettered columns. */
export interface LetteredColumn {
  kind: "lettered";
  field: "transition_choices" | "user_instruction_transitions";
  index: number;
}

/** A column of the original that the graph has no field for (its compiler's Python line numbers). */
export interface IgnoredColumn {
  kind: "ignored";
}

export type Column = FieldColumn | LetteredColumn | IgnoredColumn;

const field = (name: FieldColumn["field"], cell: CellKind = "text"): FieldColumn => ({ kind: "field", field: name, cell });

/** Lettered groups: column prefix → field. Up to 26 columns each (the original stopped at 5). */
export const LETTERED = {
  user_instruction_transition: "user_instruction_transitions",
  transition_choice: "transition_choices",
} as const;

/**
 * The columns in the original's order; a lettered group's prefix stands where its columns go,
 * so an exported sheet has the original's column order.
 */
const ORDER: (FieldColumn | keyof typeof LETTERED | "lineno")[] = [
  field("action"),
  field("name"),
  field("transitions", "list"),
  field("state_category"),
  field("notes"),
  field("transition_probs", "numbers"),
  field("instruction"),
  // Not the original's: a code row's assignment, in sheets in the evaluator's language (below).
  field("assign"),
  field("instruction_short"),
  "user_instruction_transition",
  field("question_prompt"),
  field("transition_question"),
  "transition_choice",
  field("user_interjection"),
  field("condition_interjection"),
  field("probability_interjection", "probability"),
  field("example_interjection"),
  field("prerequisite_states", "list"),
  field("blocking_states", "list"),
  field("up_weight_states", "list"),
  field("down_weight_states", "list"),
  field("boolean_condition"),
  field("required_revisit", "list"),
  field("conv_scope"),
  field("conv_context"),
  field("transition_context", "count"),
  field("reply_start"),
  field("instruction_template"),
  "lineno",
  field("def_type"),
  // Not the original's: the code a node runs on entry (its placeholders' values).
  field("setup"),
  // Not the original's: which transitions are the code's flow (see the graph format).
  field("implicit_transitions", "numbers"),
];

export function letter(index: number): string {
  return String.fromCharCode(97 + index);
}

/**
 * Header text → column, or undefined for an unknown column. Headers are case-insensitive and
 * runs of spaces mean underscores, as in the original; surrounding spaces are ignored (the
 * original rejected a trailing space with a special message instead).
 */
export function columnFor(header: string): Column | undefined {
  const key = normalizeHeader(header);
  if (key === "lineno") return { kind: "ignored" };
  const lettered = /^(transition_choice|user_instruction_transition)_([a-z])$/.exec(key);
  if (lettered) {
    const group = lettered[1] as keyof typeof LETTERED;
    return { kind: "lettered", field: LETTERED[group], index: (lettered[2] as string).charCodeAt(0) - 97 };
  }
  return ORDER.find((c): c is FieldColumn => typeof c === "object" && c.field === key);
}

export function normalizeHeader(header: string): string {
  return header.trim().toLowerCase().replace(/\s+/g, "_");
}

/** Every single-field column name, for "did you mean" messages and the docs. */
export const FIELD_COLUMN_NAMES: string[] = ORDER.filter((c): c is FieldColumn => typeof c === "object").map((c) => c.field);

/**
 * The export's header: the single columns in the original's order, each lettered group expanded to
 * `count` columns at its place. `used` says which single fields to keep.
 */
export function exportColumns(used: (field: string) => boolean, letteredCount: Record<LetteredColumn["field"], number>): { header: string; column: FieldColumn | LetteredColumn }[] {
  const out: { header: string; column: FieldColumn | LetteredColumn }[] = [];
  for (const entry of ORDER) {
    if (entry === "lineno") continue;
    if (typeof entry === "string") {
      const target = LETTERED[entry];
      for (let i = 0; i < letteredCount[target]; i++) out.push({ header: `${entry}_${letter(i)}`, column: { kind: "lettered", field: target, index: i } });
    } else if (used(entry.field)) {
      out.push({ header: entry.field, column: entry });
    }
  }
  return out;
}

/** Node fields in the order the graph format lists them, so imported nodes read like compiled ones. */
export const NODE_FIELD_ORDER: string[] = [
  "name", "action", "assign", "setup", "instruction", "transitions", "implicit_transitions", "transition_question", "transition_choices",
  "question_prompt", "boolean_condition", "user_instruction_transitions", "transition_probs", "state_category",
  "conv_scope", "transition_context", "condition_interjection", "probability_interjection", "user_interjection",
  "example_interjection", "prerequisite_states", "blocking_states", "up_weight_states", "down_weight_states",
  "required_revisit", "reply_start", "instruction_template", "notes", "instruction_short", "conv_context", "def_type",
];
