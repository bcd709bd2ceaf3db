// The graph's vocabulary: node fields, actions, transition targets, names. See docs/vocabulary.md.
export * from "./fields.js";
export * from "./actions.js";
export * from "./targets.js";
export * from "./names.js";
export * from "./effects.js";
export * from "./runtime-tools.js";
export * from "./trace.js";
