/**
 * A node as the studio names it: the name the user gave it, or, for a node the compiler made and
 * named (`main.for_of_6ddc.step`: its names have a dot, the user's never do), the line of the
 * agent file it came from (`agent.ts:42`), which is what the user wrote.
 */
import type { Graph, Loc } from "./types.js";

const lines = new WeakMap<Graph, Map<string, Loc | undefined>>();

export function nodeLabel(graph: Graph | undefined, name: string, loc?: Loc | null): string {
  if (!name.includes(".") || !graph) return name;
  let byName = lines.get(graph);
  if (!byName) {
    byName = new Map(graph.nodes.map((n) => [n.name, n.loc]));
    lines.set(graph, byName);
  }
  const at = loc ?? byName.get(name);
  if (!at) return name;
  const file = graph.source?.file.split(/[\\/]/).pop() ?? "agent";
  return `${file}:${at.line}`;
}
