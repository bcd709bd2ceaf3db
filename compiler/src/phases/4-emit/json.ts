import type { Graph, JsonValue } from "@autograms/graph";

/** Where each node's JSON sits in the emitted text (1-based first line, and how many lines). */
export interface NodeSpan {
  line: number;
  lines: number;
}

/** The graph file's text and, found while writing it, where each node's block sits in it. */
export interface GraphFile {
  text: string;
  spans: NodeSpan[];
}

const WIDTH = 100;

type Container = JsonValue[] | { [key: string]: JsonValue };

/** The text written so far, the line it has reached (1-based), and each key quoted once (the same few come back in every node). */
interface Printer {
  text: string;
  line: number;
  keys: Map<string, string>;
}

/**
 * The graph file's text: two-space JSON in which a list or object of plain values that fits on
 * a line stays on one (`"transitions": ["a", "b"]`, `"loc": { "line": 3, ... }`), so each node
 * reads as a short block. `nodes` comes last, one block per node. The printer counts the lines
 * it writes, so each node's span is read off as it is written: the source map and the text come
 * from one pass and cannot disagree.
 */
export function emitJson(graph: Graph): GraphFile {
  const { nodes, ...head } = graph;
  const p: Printer = { text: "{\n", line: 2, keys: new Map() };
  for (const [key, value] of Object.entries(head)) {
    if (value === undefined) continue;
    const prefix = `  ${keyText(p, key)}`;
    print(p, value as JsonValue, "  ", prefix, prefix.length);
    endLine(p, ",\n");
  }
  p.text += '  "nodes": [\n';
  p.line++;
  const spans = nodes.map((node, i) => {
    const line = p.line;
    print(p, node as unknown as JsonValue, "    ", "    ", 4);
    endLine(p, i < nodes.length - 1 ? ",\n" : "\n");
    return { line, lines: p.line - line };
  });
  p.text += "  ]\n}\n";
  return { text: p.text, spans };
}

/** Ends the current line with `end` (its comma, if any, and the newline) in one piece. */
function endLine(p: Printer, end: string): void {
  p.text += end;
  p.line++;
}

/** `"key": `, the text before an object's value. */
function keyText(p: Printer, key: string): string {
  let text = p.keys.get(key);
  if (text === undefined) {
    text = `${JSON.stringify(key)}: `;
    p.keys.set(key, text);
  }
  return text;
}

/**
 * Writes `value` after `prefix` (its indent and key, `used` characters) on the current line;
 * `indent` is that line's indent, where a container written over several lines closes.
 */
function print(p: Printer, value: JsonValue, indent: string, prefix: string, used: number): void {
  if (!isContainer(value)) {
    p.text += prefix + JSON.stringify(value);
    return;
  }
  const short = inline(p, value, used);
  if (short !== null) {
    p.text += prefix + short;
    return;
  }
  const isArray = Array.isArray(value);
  p.text += prefix + (isArray ? "[" : "{");
  const inner = `${indent}  `;
  let count = 0;
  if (isArray) {
    for (const item of value) {
      endLine(p, count++ > 0 ? ",\n" : "\n");
      print(p, item, inner, inner, inner.length);
    }
  } else {
    for (const key in value) {
      const item = value[key];
      if (item === undefined) continue;
      endLine(p, count++ > 0 ? ",\n" : "\n");
      const itemPrefix = inner + keyText(p, key);
      print(p, item, inner, itemPrefix, itemPrefix.length);
    }
  }
  endLine(p, "\n");
  p.text += indent + (isArray ? "]" : "}");
}

/**
 * The one-line form of a container of plain values when it fits on a line after `used`
 * characters; null for one that holds a container or is too long (given up as soon as it is).
 */
function inline(p: Printer, value: Container, used: number): string | null {
  const isArray = Array.isArray(value);
  let room = WIDTH - used - (isArray ? 2 : 4);
  let text = "";
  let count = 0;
  for (const key in value) {
    const item = (value as Record<string, JsonValue | undefined>)[key];
    if (item === undefined) continue;
    if (isContainer(item)) return null;
    const part = isArray ? JSON.stringify(item) : keyText(p, key) + JSON.stringify(item);
    room -= count > 0 ? part.length + 2 : part.length;
    if (room < 0) return null;
    text = count++ > 0 ? `${text}, ${part}` : part;
  }
  if (count === 0) return isArray ? "[]" : "{}";
  return isArray ? `[${text}]` : `{ ${text} }`;
}

const isContainer = (value: JsonValue): value is Container => value !== null && typeof value === "object";
