/**
 * What a cases file may name of an agent, read from its graph: nodes (by name, or by the source
 * line they are written at, `agent.ts:42`) and variables.
 */
import type { Graph, GraphNode } from "@autograms/graph";

const AT_LINE = /^(.+):(\d+)$/;

export type NodeRef =
  | { ok: true; nodes: ReadonlySet<string> }
  | { ok: false; problem: "unknown_node"; name: string }
  | { ok: false; problem: "no_node_at_line" | "no_source"; ref: string }
  | { ok: false; problem: "other_file"; ref: string; file: string };

export class AgentNames {
  private readonly nodes: Map<string, GraphNode>;
  private readonly refs = new Map<string, NodeRef>();
  readonly globals: string[];
  readonly variables: Set<string>;

  constructor(readonly graph: Graph) {
    this.nodes = new Map(graph.nodes.map((n) => [n.name, n]));
    this.globals = Object.keys(graph.globals ?? {});
    this.variables = new Set([
      ...this.globals,
      ...Object.values(graph.functions ?? {}).flatMap((f) => f.params),
      ...graph.nodes.flatMap((n) => (typeof n.assign === "string" ? [n.assign] : [])),
      ...graph.nodes.flatMap((n) => (n.action === "code" ? assignedInCode(n.instruction ?? "") : [])),
    ]);
  }

  /** The nodes a reference stands for: one by its name, or those written at a source line. */
  node(ref: string): NodeRef {
    let found = this.refs.get(ref);
    if (!found) this.refs.set(ref, (found = this.resolve(ref)));
    return found;
  }

  hasVariable(name: string): boolean {
    return name.startsWith("_") || this.variables.has(name);
  }

  /** Where a node is written, as `agent.ts:42`, or its name when the graph has no source. */
  where(node: string): string {
    const loc = this.nodes.get(node)?.loc;
    return loc ? `${this.sourceName()}:${loc.line}` : node;
  }

  /** The agent's file name as lines are shown with it (`agent.ts`). */
  sourceName(): string {
    return this.graph.source?.file?.split("/").pop() ?? "<graph>";
  }

  private resolve(ref: string): NodeRef {
    if (this.nodes.has(ref)) return { ok: true, nodes: new Set([ref]) };
    const m = AT_LINE.exec(ref);
    if (!m) return { ok: false, problem: "unknown_node", name: ref };
    const file = this.graph.source?.file;
    if (!file || !this.graph.nodes.some((n) => n.loc)) return { ok: false, problem: "no_source", ref };
    const [, refFile, lineText] = m as unknown as [string, string, string];
    if (!sameFile(refFile, file)) return { ok: false, problem: "other_file", ref, file };
    const line = Number(lineText);
    // The nodes that start at the line; else the closest that spans it (a loop's body line is its statement's).
    let nodes = this.graph.nodes.filter((n) => n.loc?.line === line);
    if (!nodes.length) {
      const spanning = this.graph.nodes.filter((n) => n.loc && n.loc.line <= line && line <= n.loc.endLine);
      const span = (n: GraphNode) => n.loc!.endLine - n.loc!.line;
      const least = Math.min(...spanning.map(span));
      nodes = spanning.filter((n) => span(n) === least);
    }
    return nodes.length
      ? { ok: true, nodes: new Set(nodes.map((n) => n.name)) }
      : { ok: false, problem: "no_node_at_line", ref };
  }
}

/** `agent.ts` names `samples/shop/agent.ts`; a longer path must match as far as it goes. */
function sameFile(written: string, file: string): boolean {
  const a = written.replace(/\\/g, "/").replace(/^\.\//, "");
  const b = file.replace(/\\/g, "/");
  return b === a || b.endsWith(`/${a}`) || a.endsWith(`/${b}`);
}

/** Names a code node assigns (`x = ...`, `x += ...`), so a case may ask about them. */
function assignedInCode(code: string): string[] {
  return [
    ...code.matchAll(/(?:^|[;{}\n]|\b(?:let|const|var)\s)\s*([A-Za-z_$][\w$]*)\s*(?:[-+*/%]|\*\*)?=(?![=>])/g),
  ].map((m) => m[1]!);
}
