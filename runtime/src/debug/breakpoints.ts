/**
 * Breakpoints on lines of the agent source and on function names, mapped to the nodes compiled
 * from them. A line without a node moves to the node whose statement covers it, else to the next
 * line that has one (else the last before it), as editors expect of a breakpoint set on a blank line.
 */
import type { Graph, GraphNode } from "@autograms/graph";
import { candidateOf } from "@autograms/graph";

export interface LineBreakpoint {
  id: number;
  kind: "line";
  /** The line asked for. */
  requested: number;
  /** The line it moved to; null when it is refused (see `message`). */
  line: number | null;
  /** The nodes whose entry stops the run. */
  nodes: ReadonlySet<string>;
  /** Why it cannot be verified: a line outside the file, or no line of the agent has a node. */
  message?: string;
}

export interface FunctionBreakpoint {
  id: number;
  kind: "function";
  name: string;
  /** The function's entry node; null for a name the agent has no function of. */
  node: string | null;
  line: number | null;
  /** Why it cannot be verified. */
  message?: string;
}

export type Breakpoint = LineBreakpoint | FunctionBreakpoint;

/** The line a breakpoint on `line` moves to, or null when no node has a location. */
export function breakableLine(graph: Graph, line: number): number | null {
  const located = graph.nodes.filter((n) => n.loc);
  if (located.some((n) => n.loc!.line === line)) return line;
  let inner: GraphNode | undefined;
  for (const n of located) {
    const { line: start, endLine } = n.loc!;
    if (start < line && line <= endLine && (!inner || endLine - start < inner.loc!.endLine - inner.loc!.line))
      inner = n;
  }
  if (inner) return inner.loc!.line;
  const starts = located.map((n) => n.loc!.line);
  const after = starts.filter((l) => l > line);
  if (after.length) return Math.min(...after);
  return starts.length ? Math.max(...starts) : null;
}

/**
 * The nodes a breakpoint on `line` stops at: those that start on it, and for a condition tested
 * there (an `if`, `else if` or loop test: one candidate of an `X.*` chain) the later candidates
 * too, since entering one of those means the condition on this line was tested and failed.
 */
export function nodesAtLine(graph: Graph, line: number): Set<string> {
  const out = new Set<string>();
  for (const n of graph.nodes) {
    if (n.loc?.line !== line) continue;
    out.add(n.name);
    const tested = candidateOf("lettered", n.name);
    if (!tested || n.boolean_condition === undefined) continue;
    for (const sibling of graph.nodes) {
      const s = candidateOf("lettered", sibling.name);
      if (s && s.base === tested.base && s.index > tested.index) out.add(sibling.name);
    }
  }
  return out;
}

/**
 * A breakpoint on line `requested`. A line outside the source (before line 1, or past its last
 * line when `sourceLines` says how many it has) is refused rather than moved: moving it to the
 * last node would stop somewhere the user never pointed at.
 */
export function lineBreakpoint(graph: Graph, id: number, requested: number, sourceLines?: number): LineBreakpoint {
  const refused = (message: string): LineBreakpoint => ({
    id,
    kind: "line",
    requested,
    line: null,
    nodes: new Set(),
    message,
  });
  const file = graph.source?.file ?? "the agent's file";
  if (!Number.isInteger(requested) || requested < 1)
    return refused(`line ${requested} is not a line of ${file}: lines start at 1`);
  if (sourceLines !== undefined && requested > sourceLines) {
    return refused(
      `line ${requested} is past the end of ${file}, which has ${sourceLines} line${sourceLines === 1 ? "" : "s"}`,
    );
  }
  const line = breakableLine(graph, requested);
  if (line === null) return refused("no line of the agent has a node");
  return { id, kind: "line", requested, line, nodes: nodesAtLine(graph, line) };
}

export function functionBreakpoint(graph: Graph, id: number, name: string): FunctionBreakpoint {
  const entry =
    name === "main"
      ? (graph.start ?? graph.nodes[0]?.name)
      : Object.prototype.hasOwnProperty.call(graph.functions, name)
        ? graph.functions[name]!.entry
        : undefined;
  if (entry === undefined) {
    const known = ["main", ...Object.keys(graph.functions)];
    return {
      id,
      kind: "function",
      name,
      node: null,
      line: null,
      message: `the agent has no function '${name}' (it has ${known.join(", ")})`,
    };
  }
  const line = graph.nodes.find((n) => n.name === entry)?.loc?.line ?? null;
  return { id, kind: "function", name, node: entry, line };
}
