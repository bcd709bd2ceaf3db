import { candidateOf, parseTarget, type Graph, type GraphNode, type TraceSink, traceKinds } from "@autograms/runtime";

/** The trace events that mean a node ran its action; the others are arrivals and departures. */
const RAN = traceKinds("ran");

/** Counts how often each node ran, from the trace of any number of runs. */
export class NodeVisits {
  readonly counts = new Map<string, number>();
  /** `X.*` transitions decided by conditions: "X.*\0chosen" -> how often. */
  private readonly decided = new Map<string, number>();

  readonly sink: TraceSink = (event) => {
    // A custom action's node ran when its instruction hook did; its other hooks run as it is left.
    if (RAN.has(event.kind) || (event.kind === "custom" && event.hook === "instruction")) bump(this.counts, event.node);
    else if (event.kind === "transition" && event.resolved === "condition")
      bump(this.decided, `${event.target}\0${event.to}`);
  };

  of(node: string): number {
    return this.counts.get(node) ?? 0;
  }

  /**
   * How often each candidate of an `X.*` transition had its condition tested: every candidate up
   * to the one taken. An `if` whose test failed has still run the line of its test.
   */
  tested(graph: Graph): Map<string, number> {
    const tested = new Map<string, number>();
    for (const [key, count] of this.decided) {
      const [target, to] = key.split("\0") as [string, string];
      const written = parseTarget(target);
      const base = written.kind === "lettered" ? written.base : undefined;
      const candidates = graph.nodes
        .flatMap((n) => {
          const c = candidateOf("lettered", n.name);
          return c && c.base === base ? [{ name: n.name, index: c.index }] : [];
        })
        .sort((a, b) => a.index - b.index)
        .map((c) => c.name);
      for (const name of candidates.slice(0, candidates.indexOf(to) + 1)) bump(tested, name, count);
    }
    return tested;
  }
}

function bump(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

export interface AgentFunction {
  name: string;
  /** The line that declares it (lcov's FN line). */
  line: number | undefined;
  entry: string;
  nodes: GraphNode[];
}

/**
 * The agent's functions, `main` first, each with its nodes. The compiler writes each function's
 * nodes together, starting at its entry node, so a node belongs to the last entry before it.
 */
export function functionsOf(graph: Graph): AgentFunction[] {
  const start = graph.start ?? (graph.nodes.some((n) => n.name === "start1") ? "start1" : (graph.nodes[0]?.name ?? ""));
  const byName = new Map(graph.nodes.map((n) => [n.name, n]));
  const byEntry = new Map<string, AgentFunction>();
  byEntry.set(start, { name: "main", line: byName.get(start)?.loc?.line, entry: start, nodes: [] });
  for (const [name, info] of Object.entries(graph.functions)) {
    byEntry.set(info.entry, {
      name,
      line: info.loc?.line ?? byName.get(info.entry)?.loc?.line,
      entry: info.entry,
      nodes: [],
    });
  }
  let current = byEntry.get(start)!;
  for (const node of graph.nodes) {
    current = byEntry.get(node.name) ?? current;
    current.nodes.push(node);
  }
  const main = byEntry.get(start)!;
  return [main, ...[...byEntry.values()].filter((f) => f !== main && f.nodes.length > 0)];
}

/**
 * Each source line a node stands on, with its count: how often the node ran, or had its condition
 * tested. A line takes the count of the nodes that cover it most closely (fewest lines; the largest
 * count among equals): a loop's nodes span its whole body, but the statements inside speak for
 * their own lines.
 */
export function lineCounts(graph: Graph, visits: NodeVisits): Map<number, number> {
  const closest = new Map<number, { span: number; count: number }>();
  const tested = visits.tested(graph);
  for (const node of graph.nodes) {
    if (!node.loc) continue;
    const span = node.loc.endLine - node.loc.line;
    const count = Math.max(visits.of(node.name), tested.get(node.name) ?? 0);
    for (let line = node.loc.line; line <= node.loc.endLine; line++) {
      const seen = closest.get(line);
      if (!seen || span < seen.span) closest.set(line, { span, count });
      else if (span === seen.span) seen.count = Math.max(seen.count, count);
    }
  }
  return new Map([...closest].sort(([a], [b]) => a - b).map(([line, { count }]) => [line, count]));
}

/** The lcov record of the agent source: FN/FNDA per function (calls = visits of its entry), DA per line. */
export function toLcov(graph: Graph, visits: NodeVisits, sourceFile: string): string {
  const functions = functionsOf(graph).filter((f) => f.line !== undefined);
  const lines = lineCounts(graph, visits);
  const out = ["TN:", `SF:${sourceFile}`];
  for (const f of functions) out.push(`FN:${f.line},${f.name}`);
  for (const f of functions) out.push(`FNDA:${visits.of(f.entry)},${f.name}`);
  out.push(`FNF:${functions.length}`, `FNH:${functions.filter((f) => visits.of(f.entry) > 0).length}`);
  for (const [line, count] of lines) out.push(`DA:${line},${count}`);
  out.push(`LF:${lines.size}`, `LH:${[...lines.values()].filter((c) => c > 0).length}`, "end_of_record");
  return out.join("\n") + "\n";
}

export interface FunctionCoverage {
  name: string;
  nodes: { visited: number; total: number };
  lines: { hit: number; total: number };
}

export function functionCoverage(graph: Graph, visits: NodeVisits): FunctionCoverage[] {
  const counts = lineCounts(graph, visits);
  return functionsOf(graph).map((f) => {
    const lines = new Set(f.nodes.flatMap((n) => (n.loc ? range(n.loc.line, n.loc.endLine) : [])));
    return {
      name: f.name,
      nodes: { visited: f.nodes.filter((n) => visits.of(n.name) > 0).length, total: f.nodes.length },
      lines: { hit: [...lines].filter((l) => (counts.get(l) ?? 0) > 0).length, total: lines.size },
    };
  });
}

/** The per-function table the CLI prints: nodes visited and lines hit, of the totals. */
export function coverageSummary(graph: Graph, visits: NodeVisits): string {
  const rows = functionCoverage(graph, visits);
  const all = rows.reduce(
    (a, r) => ({
      name: "all",
      nodes: { visited: a.nodes.visited + r.nodes.visited, total: a.nodes.total + r.nodes.total },
      lines: { hit: a.lines.hit + r.lines.hit, total: a.lines.total + r.lines.total },
    }),
    { name: "all", nodes: { visited: 0, total: 0 }, lines: { hit: 0, total: 0 } },
  );
  const width = Math.max(8, ...rows.map((r) => r.name.length));
  const cell = (n: number, of: number) => `${`${n}/${of}`.padStart(7)} ${percent(n, of).padStart(4)}`;
  const line = (r: FunctionCoverage) =>
    `  ${r.name.padEnd(width)}  ${cell(r.nodes.visited, r.nodes.total)}   ${cell(r.lines.hit, r.lines.total)}`;
  return (
    [`  ${"function".padEnd(width)}  ${"nodes".padEnd(12)}   lines`, ...rows.map(line), line(all)].join("\n") + "\n"
  );
}

const percent = (n: number, of: number) => (of === 0 ? "-" : `${Math.floor((100 * n) / of)}%`);

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
