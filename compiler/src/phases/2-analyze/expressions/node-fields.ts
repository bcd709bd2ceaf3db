import { FIELDS, type ValueKind } from "@autograms/graph";

/** The node fields an agent may write, with the type each value must have. */
export type FieldType = "string" | "text" | "strings" | "integer" | "numbers" | "probability" | "tools" | "object";

/** How the agent language checks a literal of each kind of value (`text`: a template literal). */
const FIELD_TYPES: Record<ValueKind, FieldType | undefined> = {
  name: "string",
  action: "string",
  text: "string",
  code: "string",
  variable: "string",
  targets: "strings",
  nodes: "strings",
  texts: "strings",
  numbers: "numbers",
  // Only the compiler writes them (the code's flow).
  indices: undefined,
  count: "integer",
  probability: "probability",
  tools: "tools",
  loc: undefined,
  json_schema: "object",
  // Only the spreadsheet importer writes it.
  text_map: undefined,
};

/** The vocabulary's fields an agent writes, in its order, each with the type it checks. */
export const WRITTEN_FIELDS: Record<string, FieldType> = Object.fromEntries(
  FIELDS.flatMap((f) => {
    const type = f.language === "template" ? "text" : FIELD_TYPES[f.value];
    return f.language === false || type === undefined ? [] : [[f.name, type]];
  }),
);
