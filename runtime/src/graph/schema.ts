/**
 * JSON Schema (draft 2020-12) of the graph format in `types.ts`. The build also writes it to
 * `dist/graph/graph.schema.json` so tools outside TypeScript can validate graphs.
 */
const stringList = { type: "array", items: { type: "string" } } as const;
const loc = {
  type: "object",
  required: ["line", "column", "endLine", "endColumn"],
  additionalProperties: false,
  properties: {
    line: { type: "integer", minimum: 1 },
    column: { type: "integer", minimum: 1 },
    endLine: { type: "integer", minimum: 1 },
    endColumn: { type: "integer", minimum: 1 },
  },
} as const;

const BUILTIN_ACTIONS = [
  "chat", "chat_exact", "chat_suffix", "thought", "thought_exact", "thought_qa",
  "set_prompt", "append_prompt", "set_user_prompt", "append_user_prompt",
  "function", "local_function", "global_function", "transition", "code",
] as const;
const BASE_ACTIONS = [
  "chat", "chat_exact", "chat_suffix", "thought", "thought_exact", "thought_qa",
  "set_prompt", "append_prompt", "set_user_prompt", "append_user_prompt", "transition",
] as const;
/** A custom action's name: what a node's `action` says (the graph's `actions` must define it). */
const ACTION_NAME = "^[A-Za-z_][A-Za-z0-9_]*$";

const nodeFields = {
  name: { type: "string", minLength: 1 },
  action: { enum: BUILTIN_ACTIONS },
  instruction: { type: "string" },
  transitions: { ...stringList, minItems: 1 },
  implicit_transitions: { type: "array", items: { type: "integer", minimum: 0 }, uniqueItems: true },
  assign: { type: "string", pattern: "^[A-Za-z_$][A-Za-z0-9_$]*$" },
  setup: { type: "string" },
  transition_question: { type: "string" },
  transition_choices: stringList,
  question_prompt: { type: "string" },
  boolean_condition: { type: "string" },
  user_instruction_transitions: stringList,
  transition_probs: { type: "array", items: { type: "number", minimum: 0 } },
  state_category: { type: "string" },
  conv_scope: { type: "string" },
  transition_context: { type: "integer", minimum: 0 },
  condition_interjection: { type: "string" },
  probability_interjection: { type: "number", minimum: 0, maximum: 1 },
  user_interjection: { type: "string" },
  example_interjection: { type: "string" },
  prerequisite_states: stringList,
  blocking_states: stringList,
  up_weight_states: stringList,
  down_weight_states: stringList,
  required_revisit: stringList,
  reply_start: { type: "string" },
  instruction_template: { type: "string" },
  notes: { type: "string" },
  instruction_short: { type: "string" },
  conv_context: { type: "string" },
  tools: { ...stringList, minItems: 1, uniqueItems: true },
  loc,
  def_type: { type: "string" },
} as const;

/** Fields every node may have, whatever its action; a custom action's fields are others. */
export const NODE_FIELD_NAMES: ReadonlySet<string> = new Set(Object.keys(nodeFields));

export const graphSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://autograms-ts.dev/schema/graph-v1.json",
  title: "autograms-ts graph",
  type: "object",
  required: ["format", "version", "agent", "globals", "functions", "nodes"],
  additionalProperties: false,
  properties: {
    format: { const: "autograms-graph" },
    version: { const: 1 },
    source: {
      type: "object",
      required: ["file", "sha256"],
      additionalProperties: false,
      properties: { file: { type: "string" }, sha256: { type: "string", pattern: "^[0-9a-f]{64}$" } },
    },
    agent: { type: "string" },
    globals: { type: "object" },
    functions: {
      type: "object",
      additionalProperties: {
        type: "object",
        required: ["kind", "params", "entry"],
        additionalProperties: false,
        properties: {
          kind: { enum: ["function", "local_function", "global_function"] },
          params: stringList,
          required: { type: "integer", minimum: 0 },
          defaults: { type: "object" },
          entry: { type: "string" },
          loc,
        },
      },
    },
    tools: {
      type: "object",
      additionalProperties: {
        type: "object",
        required: ["module", "export"],
        additionalProperties: false,
        properties: { module: { type: "string" }, export: { type: "string" } },
      },
    },
    actions: {
      type: "object",
      propertyNames: { pattern: ACTION_NAME, not: { enum: BUILTIN_ACTIONS } },
      additionalProperties: {
        type: "object",
        required: ["module", "export"],
        additionalProperties: false,
        properties: {
          module: { type: "string" },
          export: { type: "string" },
          base: { enum: BASE_ACTIONS },
          // Each field's JSON Schema; validateGraph compiles them.
          fields: { type: "object", additionalProperties: { type: ["object", "boolean"] } },
          required: { ...stringList, uniqueItems: true },
        },
      },
    },
    start: { type: "string" },
    nodes: {
      type: "array",
      items: {
        type: "object",
        required: ["name", "action", "transitions"],
        properties: { ...nodeFields, action: { type: "string", pattern: ACTION_NAME } },
        allOf: [
          // A built-in action's node has the format's fields only; a custom action's node also has
          // the fields its action declares (validateGraph checks them against the action's schemas).
          {
            if: { properties: { action: { enum: BUILTIN_ACTIONS } } },
            then: { properties: nodeFields, additionalProperties: false },
          },
          // Every built-in action but `transition` carries an instruction.
          {
            if: { properties: { action: { enum: BUILTIN_ACTIONS.filter((a) => a !== "transition") } } },
            then: { required: ["instruction"] },
          },
        ],
      },
    },
  },
} as const;
