/**
 * The columns of the original's spreadsheet format (its `EXPECTED_FIELDS`, in its order) and how
 * each maps to a graph node field, derived from the vocabulary's fields (where each says where the
 * sheet keeps it). Shared by the importer and the exporter so the two agree.
 */
import { FIELDS, type Field, type FieldsOfKind, type NodeFieldName, type ValueKind } from "@autograms/graph";

/** How a cell's text becomes a field value. */
export type CellKind =
  | "text"
  /** Comma-separated names (commas inside parentheses do not split: `return f(a, b)`). */
  | "list"
  | "numbers"
  | "count"
  | "probability"
  /** JSON text (a thought's `schema`). */
  | "json";

/** The cell of each kind of value that has a column of its own. */
const CELLS: Record<ValueKind, CellKind | undefined> = {
  name: "text",
  action: "text",
  text: "text",
  code: "text",
  variable: "text",
  targets: "list",
  nodes: "list",
  texts: "list",
  numbers: "numbers",
  indices: "numbers",
  count: "count",
  probability: "probability",
  tools: undefined,
  loc: undefined,
  json_schema: "json",
  text_map: "json",
};

/** A column that holds one node field. */
export interface FieldColumn {
  kind: "field";
  field: NodeFieldName;
  cell: CellKind;
}

/** `transition_choice_a`, `transition_choice_b`, ...: one list field spread over lettered columns. */
export interface LetteredColumn {
  kind: "lettered";
  field: FieldsOfKind<"texts">;
  index: number;
}

/** A column of the original that the graph has no field for (its compiler's Python line numbers). */
export interface IgnoredColumn {
  kind: "ignored";
}

export type Column = FieldColumn | LetteredColumn | IgnoredColumn;

/**
 * The original's columns in its order, by name: a field's name, a lettered group's prefix (where
 * its columns go), or `lineno`. Fields the original has no column for follow, in the vocabulary's
 * order, so an exported sheet has the original's column order.
 */
const ORIGINAL_ORDER = [
  "action",
  "name",
  "transitions",
  "state_category",
  "notes",
  "transition_probs",
  "instruction",
  // Not the original's: a code row's assignment, in sheets in the evaluator's language (below).
  "assign",
  "instruction_short",
  "user_instruction_transition",
  "question_prompt",
  "transition_question",
  "transition_choice",
  "user_interjection",
  "condition_interjection",
  "probability_interjection",
  "example_interjection",
  "prerequisite_states",
  "blocking_states",
  "up_weight_states",
  "down_weight_states",
  "boolean_condition",
  "required_revisit",
  "conv_scope",
  "conv_context",
  "transition_context",
  "reply_start",
  "instruction_template",
  "lineno",
  "def_type",
];

const lettered = (f: Field): string | undefined => (typeof f.sheet === "object" ? f.sheet.lettered : undefined);

/** Lettered groups: column prefix → field. Up to 26 columns each (the original stopped at 5). */
export const LETTERED: Readonly<Record<string, LetteredColumn["field"]>> = Object.fromEntries(
  // A lettered field's items are texts, one per transition (`FieldsOfKind<"texts">`).
  ORIGINAL_ORDER.flatMap((name) =>
    FIELDS.filter((f) => lettered(f) === name).map((f) => [name, f.name as LetteredColumn["field"]]),
  ),
);

function fieldColumn(f: Field): FieldColumn | undefined {
  const cell = CELLS[f.value];
  return f.sheet === "column" && cell !== undefined ? { kind: "field", field: f.name, cell } : undefined;
}

/** The columns in order: a lettered group's prefix stands where its columns go. */
const ORDER: (FieldColumn | string)[] = [
  ...ORIGINAL_ORDER.map((name) => {
    const field = FIELDS.find((f) => f.name === name);
    return (field && fieldColumn(field)) ?? name;
  }),
  ...FIELDS.filter((f) => !ORIGINAL_ORDER.includes(f.name)).flatMap((f) => fieldColumn(f) ?? []),
];

/** The columns above that the original's reader rejects ("Invalid field ..."): this format's own. */
export const EXTENSION_FIELDS: ReadonlySet<string> = new Set(["assign", "setup", "schema", "python"]);

/** The original's reader takes lettered columns `a` to `e` only (its EXPECTED_FIELDS). */
export const ORIGINAL_LETTERED_COUNT = 5;

export function letter(index: number): string {
  return String.fromCharCode(97 + index);
}

const LETTERED_HEADER = new RegExp(`^(${Object.keys(LETTERED).join("|")})_([a-z])$`);

/**
 * Header text → column, or undefined for an unknown column. Headers are case-insensitive and
 * runs of spaces mean underscores, as in the original; surrounding spaces are ignored (the
 * original rejected a trailing space with a special message instead).
 */
export function columnFor(header: string): Column | undefined {
  const key = normalizeHeader(header);
  if (key === "lineno") return { kind: "ignored" };
  const match = LETTERED_HEADER.exec(key);
  if (match) return { kind: "lettered", field: LETTERED[match[1]!]!, index: match[2]!.charCodeAt(0) - 97 };
  return ORDER.find((c): c is FieldColumn => typeof c === "object" && c.field === key);
}

export function normalizeHeader(header: string): string {
  return header.trim().toLowerCase().replace(/\s+/g, "_");
}

/** Every single-field column name, for "did you mean" messages and the docs. */
export const FIELD_COLUMN_NAMES: string[] = ORDER.filter((c): c is FieldColumn => typeof c === "object").map(
  (c) => c.field,
);

/**
 * The export's header: the single columns in the original's order, each lettered group expanded to
 * `count` columns at its place. `used` says which single fields to keep.
 */
export function exportColumns(
  used: (field: string) => boolean,
  letteredCount: Record<LetteredColumn["field"], number>,
): { header: string; column: FieldColumn | LetteredColumn }[] {
  const out: { header: string; column: FieldColumn | LetteredColumn }[] = [];
  for (const entry of ORDER) {
    if (typeof entry === "string") {
      const target = LETTERED[entry];
      for (let i = 0; target && i < letteredCount[target]; i++)
        out.push({ header: `${entry}_${letter(i)}`, column: { kind: "lettered", field: target, index: i } });
    } else if (used(entry.field)) {
      out.push({ header: entry.field, column: entry });
    }
  }
  return out;
}

/** The prefix of a lettered field's columns (`transition_choice` for `transition_choices`). */
export function letteredPrefix(field: LetteredColumn["field"]): string {
  return Object.keys(LETTERED).find((prefix) => LETTERED[prefix] === field)!;
}

/** The fields whose items are node names (transitions, states): a renamed node is renamed in them. */
export const NODE_NAME_FIELDS: ReadonlySet<string> = new Set(
  FIELDS.filter((f) => f.value === "targets" || f.value === "nodes").map((f) => f.name),
);
