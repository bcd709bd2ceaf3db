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

const nodeFields = {
  name: { type: "string", minLength: 1 },
  action: {
    enum: [
      "chat", "chat_exact", "chat_suffix", "thought", "thought_exact", "thought_qa",
      "set_prompt", "append_prompt", "set_user_prompt", "append_user_prompt",
      "function", "local_function", "global_function", "transition", "code",
    ],
  },
  instruction: { type: "string" },
  transitions: { ...stringList, minItems: 1 },
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
    start: { type: "string" },
    nodes: {
      type: "array",
      items: {
        type: "object",
        required: ["name", "action", "transitions"],
        additionalProperties: false,
        properties: nodeFields,
        // Every action but `transition` carries an instruction.
        if: { properties: { action: { not: { const: "transition" } } } },
        then: { required: ["instruction"] },
      },
    },
  },
} as const;
