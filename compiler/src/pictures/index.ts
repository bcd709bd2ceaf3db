// Pictures of a graph: Mermaid, DOT and a self-contained HTML page.
export { toMermaid } from "./mermaid.js";
export { toDot } from "./dot.js";
export { toHtml, toSvg } from "./html.js";
export type { HtmlOptions } from "./html.js";
export type { TraceStep } from "./trace-step.js";
export type { GraphView, ViewOptions } from "./fold.js";
