/**
 * The JSON Schema of a cases file's entries (docs/evals.md): a case per JSONL line or YAML list
 * item, and the optional settings entry. `readCases` checks every entry against it, so each shape
 * problem is reported at its line with the schema's words.
 */
const scorers = {
  type: "array",
  description:
    "Scorers of your code, as 'MODULE#EXPORT' (the module relative to the cases file; no #EXPORT: its default export).",
  items: { type: "string", minLength: 1 },
} as const;

const texts = { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] } as const;

const turnExpectations = {
  type: "object",
  additionalProperties: false,
  properties: {
    node: { type: "string", minLength: 1, description: "The node that replied: its name, or FILE:LINE." },
    path: {
      type: "array",
      items: { type: "string", minLength: 1 },
      description: "Nodes the turn passed through, in order; a subsequence of its path is enough.",
    },
    reply: {
      type: "object",
      additionalProperties: false,
      properties: { contains: texts, regex: { type: "string" }, equals: { type: "string" }, not: texts },
    },
    vars: { type: "object", description: "Variables' values after the turn (deep equality)." },
    varsSchema: {
      type: "object",
      description: "Variables' values after the turn, each against a JSON Schema.",
      additionalProperties: { type: ["object", "boolean"] },
    },
    tool: {
      type: "object",
      additionalProperties: false,
      required: ["name"],
      properties: { name: { type: "string", minLength: 1 }, args: { type: "object" } },
    },
    judge: { type: "string", minLength: 1, description: "A criterion in words, scored by the judge model." },
    maxTokens: { type: "integer", minimum: 0 },
    maxMs: { type: "number", minimum: 0 },
    scorers,
  },
} as const;

const turn = {
  type: "object",
  additionalProperties: false,
  properties: {
    user: {
      type: "string",
      description: "What the user says; the first turn is the agent's opening (usually no text).",
    },
    expect: turnExpectations,
  },
} as const;

const settingsEntry = {
  type: "object",
  additionalProperties: false,
  required: ["settings"],
  properties: { settings: { type: "object", additionalProperties: false, properties: { scorers } } },
} as const;

/** What every case has, scripted or simulated. */
const caseFields = {
  name: { type: "string", minLength: 1 },
  vars: { type: "object", description: "Starting values of the agent's globals." },
  scorers,
} as const;

const scriptedCase = {
  type: "object",
  additionalProperties: false,
  required: ["name", "turns"],
  properties: {
    ...caseFields,
    turns: { type: "array", minItems: 1, items: turn },
  },
} as const;

const simulatedCase = {
  type: "object",
  additionalProperties: false,
  required: ["name", "simulate"],
  properties: {
    ...caseFields,
    simulate: {
      type: "object",
      additionalProperties: false,
      properties: { maxTurns: { type: "integer", minimum: 1 }, seed: { type: "integer", minimum: 0 } },
    },
    expect: {
      type: "object",
      additionalProperties: false,
      properties: {
        reached: { type: "array", items: { type: "string", minLength: 1 } },
        notReached: { type: "array", items: { type: "string", minLength: 1 } },
        ended: { type: "boolean" },
        scorers,
      },
    },
  },
} as const;

/** The schema of an entry, whichever its kind: what docs/evals.md publishes. */
export const casesSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "An entry of an autograms cases file",
  oneOf: [settingsEntry, scriptedCase, simulatedCase],
} as const;

/**
 * The schema an entry is checked against: chosen by its key (`settings`, `simulate`, else
 * scripted turns), so a problem is told in that kind's terms rather than as "matches no oneOf".
 */
export function entrySchema(entry: Record<string, unknown>): object {
  if ("settings" in entry) return settingsEntry;
  return "simulate" in entry ? simulatedCase : scriptedCase;
}
