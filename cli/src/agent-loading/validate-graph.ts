// Imported on its own so that the graph validator (which compiles its JSON Schema when loaded) is
// loaded only for a graph file, not for an agent that is compiled.
export { validateGraph } from "@autograms/runtime";
