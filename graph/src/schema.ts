/**
 * JSON Schema (draft 2020-12) of the graph format in `types.ts`, its node fields and actions
 * derived from the vocabulary. The build also writes it to `dist/graph/graph.schema.json` so tools
 * outside TypeScript can validate graphs.
 */
import {
  ACTION_NAME,
  ACTIONS,
  AUTOMATIC_PREFIX,
  BASE_ACTIONS,
  EFFECT_FLAG_NAMES,
  FIELDS,
  FUNCTION_KINDS,
  instructionKind,
  VARIABLE_NAME,
  type ValueKind,
} from "./vocabulary/index.js";

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

/** The JSON Schema of each kind of field value (vocabulary/fields.ts). */
const valueSchemas = {
  name: { type: "string", minLength: 1 },
  action: { enum: ACTIONS },
  text: { type: "string" },
  code: { type: "string" },
  variable: { type: "string", pattern: VARIABLE_NAME },
  targets: { ...stringList, minItems: 1 },
  nodes: stringList,
  texts: stringList,
  numbers: { type: "array", items: { type: "number", minimum: 0 } },
  indices: { type: "array", items: { type: "integer", minimum: 0 }, uniqueItems: true },
  count: { type: "integer", minimum: 0 },
  probability: { type: "number", minimum: 0, maximum: 1 },
  tools: { ...stringList, minItems: 1, uniqueItems: true },
  loc,
  // Whether it is a JSON Schema the validator checks by compiling it (validate.ts).
  json_schema: { type: "object" },
  text_map: { type: "object", additionalProperties: { type: "string" } },
} as const satisfies Record<ValueKind, object>;

const nodeFields = Object.fromEntries(FIELDS.map((f) => [f.name, valueSchemas[f.value]]));
const requiredFields = FIELDS.filter((f) => f.required).map((f) => f.name);
/** Every built-in action but the ones whose instruction is optional carries one. */
const instructed = ACTIONS.filter((a) => instructionKind(a) !== "none");

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
          kind: { enum: FUNCTION_KINDS },
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
      propertyNames: { pattern: ACTION_NAME, not: { enum: ACTIONS } },
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
          decides: { const: true },
          effects: {
            type: "object",
            additionalProperties: false,
            properties: {
              ...Object.fromEntries(EFFECT_FLAG_NAMES.map((f) => [f, { const: true }])),
              assign: {
                type: "array",
                uniqueItems: true,
                // A variable name, but none of the automatic ones the runtime sets.
                items: { type: "string", pattern: `^(?!${AUTOMATIC_PREFIX})${VARIABLE_NAME.slice(1)}` },
              },
            },
          },
        },
      },
    },
    start: { type: "string" },
    nodes: {
      type: "array",
      items: {
        type: "object",
        required: requiredFields,
        properties: { ...nodeFields, action: { type: "string", pattern: ACTION_NAME } },
        allOf: [
          // A built-in action's node has the format's fields only; a custom action's node also has
          // the fields its action declares (validateGraph checks them against the action's schemas).
          {
            if: { properties: { action: { enum: ACTIONS } } },
            then: { properties: nodeFields, additionalProperties: false },
          },
          {
            if: { properties: { action: { enum: instructed } } },
            then: { required: ["instruction"] },
          },
        ],
      },
    },
  },
} as const;
