// Public API of @autograms/compiler (DESIGN §3).
export {};

// Graph formats: Mermaid and DOT pictures, the original's CSV spreadsheets (graph-formats/).
export * from "./graph-formats/index.js";
