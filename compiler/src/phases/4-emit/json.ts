import type { Graph, JsonValue } from "@autograms/graph";

/** Where each node's JSON sits in the emitted text (1-based first line, and how many lines). */
export interface NodeSpan {
  line: number;
  lines: number;
}

const WIDTH = 100;

/**
 * The graph file's text: two-space JSON in which a list or object of plain values that fits on
 * a line stays on one (`"transitions": ["a", "b"]`, `"loc": { "line": 3, ... }`), so each node
 * reads as a short block. `nodes` comes last, one block per node.
 */
export function emitJson(graph: Graph): string {
  const { nodes, ...head } = graph;
  const lines = ["{"];
  for (const [key, value] of Object.entries(head)) {
    if (value !== undefined)
      lines.push(`  ${JSON.stringify(key)}: ${format(value as JsonValue, "  ", key.length + 4)},`);
  }
  lines.push('  "nodes": [');
  nodes.forEach((node, i) => {
    lines.push(`    ${format(node as unknown as JsonValue, "    ", 0)}${i < nodes.length - 1 ? "," : ""}`);
  });
  lines.push("  ]", "}", "");
  return lines.join("\n");
}

/** Where each node's block starts in `emitJson(graph)` and how many lines it takes, counted without writing it. */
export function nodeSpans(graph: Graph): NodeSpan[] {
  const { nodes, ...head } = graph;
  // `{`, each other key, then `"nodes": [`.
  let line = 3;
  for (const [key, value] of Object.entries(head))
    if (value !== undefined) line += lineCount(value as JsonValue, "  ", key.length + 4);
  return nodes.map((node) => {
    const span = { line, lines: lineCount(node as unknown as JsonValue, "    ", 0) };
    line += span.lines;
    return span;
  });
}

type Entry = [key: string | null, value: JsonValue];

function entriesOf(value: JsonValue[] | { [key: string]: JsonValue }): Entry[] {
  return Array.isArray(value)
    ? value.map((item) => [null, item])
    : Object.entries(value).filter(([, v]) => v !== undefined);
}

const keyText = (key: string | null) => (key === null ? "" : `${JSON.stringify(key)}: `);

/** The one-line form of a container of plain values, when it fits after `indent` and `used` characters. */
function inline(
  value: JsonValue[] | { [key: string]: JsonValue },
  entries: Entry[],
  indent: string,
  used: number,
): string | null {
  if (!entries.every(([, v]) => v === null || typeof v !== "object")) return null;
  const parts = entries.map(([k, v]) => keyText(k) + JSON.stringify(v));
  const text = Array.isArray(value) ? `[${parts.join(", ")}]` : `{ ${parts.join(", ")} }`;
  return indent.length + used + text.length <= WIDTH ? text : null;
}

/** `value` as it appears after `indent` and a prefix of `used` characters on its first line. */
function format(value: JsonValue, indent: string, used: number): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const entries = entriesOf(value);
  if (entries.length === 0) return Array.isArray(value) ? "[]" : "{}";
  const short = inline(value, entries, indent, used);
  if (short !== null) return short;
  const inner = `${indent}  `;
  const items = entries.map(([k, v]) => inner + keyText(k) + format(v, inner, keyText(k).length));
  return `${Array.isArray(value) ? "[" : "{"}\n${items.join(",\n")}\n${indent}${Array.isArray(value) ? "]" : "}"}`;
}

/** How many lines `format(value, indent, used)` takes (run for every node: it allocates nothing it can avoid). */
function lineCount(value: JsonValue, indent: string, used: number): number {
  if (value === null || typeof value !== "object") return 1;
  const isArray = Array.isArray(value);
  let count = 0;
  let plain = true;
  let width = indent.length + used + (isArray ? 2 : 4);
  for (const key in value) {
    const item = (value as Record<string, JsonValue | undefined>)[key];
    if (item === undefined) continue;
    count++;
    if (item !== null && typeof item === "object") plain = false;
    else if (plain)
      width += (isArray ? 0 : JSON.stringify(key).length + 2) + JSON.stringify(item).length + (count > 1 ? 2 : 0);
  }
  if (count === 0 || (plain && width <= WIDTH)) return 1;
  const inner = `${indent}  `;
  let lines = 2;
  for (const key in value) {
    const item = (value as Record<string, JsonValue | undefined>)[key];
    if (item !== undefined) lines += lineCount(item, inner, isArray ? 0 : JSON.stringify(key).length + 2);
  }
  return lines;
}
