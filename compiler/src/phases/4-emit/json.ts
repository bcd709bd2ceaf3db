import type { Graph } from "@autograms/runtime";

/** Where each node's JSON sits in the emitted text (1-based first line, and how many lines). */
export interface NodeSpan {
  line: number;
  lines: number;
}

/**
 * The graph file's text: exactly `JSON.stringify(graph, null, 2)` plus a newline, so any tool can
 * reproduce it, with the line span of every node for the source map. `nodes` is the last key.
 */
export function emitJson(graph: Graph): { text: string; spans: NodeSpan[] } {
  const text = JSON.stringify(graph, null, 2) + "\n";
  const { nodes, ...head } = graph;
  const headLines = JSON.stringify({ ...head, nodes: [null] }, null, 2).split("\n");
  let line = headLines.indexOf('  "nodes": [') + 2;
  const spans = nodes.map((node) => {
    const lines = JSON.stringify(node, null, 2).split("\n").length;
    const span = { line, lines };
    line += lines;
    return span;
  });
  return { text, spans };
}
