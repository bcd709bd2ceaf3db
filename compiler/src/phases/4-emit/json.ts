import type { Graph, JsonValue } from "@autograms/runtime";

/** Where each node's JSON sits in the emitted text (1-based first line, and how many lines). */
export interface NodeSpan {
  line: number;
  lines: number;
}

const WIDTH = 100;

/**
 * The graph file's text: two-space JSON in which a list or object of plain values that fits on
 * a line stays on one (`"transitions": ["a", "b"]`, `"loc": { "line": 3, ... }`), so each node
 * reads as a short block. Also returns the line span of every node, for the source map.
 */
export function emitJson(graph: Graph): { text: string; spans: NodeSpan[] } {
  const { nodes, ...head } = graph;
  const lines = ["{"];
  for (const [key, value] of Object.entries(head)) {
    if (value !== undefined) lines.push(`  ${JSON.stringify(key)}: ${format(value as JsonValue, "  ", key.length + 4)},`);
  }
  lines.push('  "nodes": [');
  let line = lines.length + 1 + lines.reduce((n, text) => n + countNewlines(text), 0);
  const spans: NodeSpan[] = [];
  nodes.forEach((node, i) => {
    const text = format(node as unknown as JsonValue, "    ", 0);
    const count = 1 + countNewlines(text);
    spans.push({ line, lines: count });
    line += count;
    lines.push(`    ${text}${i < nodes.length - 1 ? "," : ""}`);
  });
  lines.push("  ]", "}", "");
  return { text: lines.join("\n"), spans };
}

/** `value` as it appears after `indent` and a prefix of `used` characters on its first line. */
function format(value: JsonValue, indent: string, used: number): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const isArray = Array.isArray(value);
  const entries: [string | null, JsonValue][] = isArray
    ? value.map((item) => [null, item])
    : Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return isArray ? "[]" : "{}";
  const key = (k: string | null) => (k === null ? "" : `${JSON.stringify(k)}: `);
  if (entries.every(([, v]) => v === null || typeof v !== "object")) {
    const parts = entries.map(([k, v]) => key(k) + JSON.stringify(v));
    const inline = isArray ? `[${parts.join(", ")}]` : `{ ${parts.join(", ")} }`;
    if (indent.length + used + inline.length <= WIDTH) return inline;
  }
  const inner = `${indent}  `;
  const items = entries.map(([k, v]) => inner + key(k) + format(v, inner, key(k).length));
  return `${isArray ? "[" : "{"}\n${items.join(",\n")}\n${indent}${isArray ? "]" : "}"}`;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  return count;
}
