// Public API of @autograms/graph: the graph format, the contract between compiling and running
// (docs/graph-format.md). It depends on none of the other packages.
export type * from "./types.js";
// The graph's vocabulary (node fields, actions, transition targets): docs/vocabulary.md.
export * from "./vocabulary/index.js";
export { graphSchema } from "./schema.js";
export { nodeFieldFindings, nodeNameFindings, validateGraphWith } from "./validate.js";
export type { GraphError, GraphValidation, NodeFieldFinding, NodeFieldsChecked, NodeNameFinding } from "./validate.js";
export { actionDeclarationProblems, nodeFieldProblems, recordedEffects, ownFields } from "./action-fields.js";
export type { FieldProblem } from "./action-fields.js";
export { schemaErrors, validatorOf } from "./json-schemas.js";
export { argumentCountProblem } from "./arguments.js";
export { parseCallInstruction } from "./call-instruction.js";
export { codeFields } from "./code-fields.js";
export type { CodeProblem } from "./code-fields.js";
