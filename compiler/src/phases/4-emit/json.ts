import type { Graph, JsonValue } from "@autograms/runtime";

/** Where each node's JSON sits in the emitted text (1-based first line, and how many lines). */
export interface NodeSpan {
  line: number;
  lines: number;
}

/**
 * The graph file's text: exactly `JSON.stringify(graph, null, 2)` plus a newline, so any tool can
 * reproduce it. `nodes` is the last key.
 */
export function emitJson(graph: Graph): string {
  return JSON.stringify(graph, null, 2) + "\n";
}

/** The line span of every node in `emitJson(graph)`, counted without building the text. */
export function nodeSpans(graph: Graph): NodeSpan[] {
  const { nodes, ...head } = graph;
  // `{`, then the other keys, then `"nodes": [`.
  let line = 3;
  for (const value of Object.values(head)) line += value === undefined ? 0 : lineCount(value as JsonValue);
  return nodes.map((node) => {
    const span = { line, lines: lineCount(node as unknown as JsonValue) };
    line += span.lines;
    return span;
  });
}

/** Lines `JSON.stringify(value, null, 2)` takes: one per scalar or empty container, else one per item plus brackets. */
function lineCount(value: JsonValue): number {
  if (value === null || typeof value !== "object") return 1;
  const items = Array.isArray(value) ? value : Object.values(value).filter((v) => v !== undefined);
  let lines = items.length ? 2 : 1;
  for (const item of items) lines += lineCount(item as JsonValue);
  return lines;
}
