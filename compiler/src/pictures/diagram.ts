/**
 * What a picture of a graph shows, independent of the drawing language: one cluster per function
 * (main first), the nodes in it, the pseudo-nodes that special targets become (return, quit,
 * `$var`, missing names), and labelled edges. Mermaid and DOT both render this one model, so the
 * two pictures always carry the same information.
 */
import {
  candidates,
  familyOf,
  isFunctionKind,
  parseTarget,
  type ActionFamily,
  type Graph,
  type GraphNode,
} from "@autograms/graph";

export type DiagramItem =
  /** In the code view, `folded` names the nodes this one stands for and `lines` is its label. */
  | { kind: "node"; id: string; node: GraphNode; folded?: string[]; lines?: string[] }
  | { kind: "return"; id: string }
  | { kind: "quit"; id: string }
  | { kind: "dynamic"; id: string; variable: string }
  /** `X.n`: one router per function, with an edge to each `X.k` (many nodes use the same `X.n`). */
  | { kind: "visits"; id: string; target: string }
  | { kind: "missing"; id: string; name: string };

export interface Cluster {
  id: string;
  /** `main`, or the function's kind and signature: `global_function doUnit(unit)`. */
  title: string;
  items: DiagramItem[];
}

export type EdgeKind = "transition" | "call";

export interface DiagramEdge {
  kind: EdgeKind;
  from: string;
  to: string;
  label?: string;
}

export interface Diagram {
  agent: string;
  clusters: Cluster[];
  /** Items outside every cluster (the one `quit` terminal). */
  outside: DiagramItem[];
  edges: DiagramEdge[];
}

/** A transition target resolved to the nodes (or pseudo-targets) it can lead to. */
type Resolved =
  | { kind: "node"; name: string; label?: string }
  | { kind: "return"; expr?: string }
  | { kind: "quit" }
  | { kind: "dynamic"; variable: string }
  | { kind: "visits"; target: string; visits: { name: string; label: string }[] }
  | { kind: "missing"; name: string };

function resolveTarget(target: string, byName: Map<string, GraphNode>): Resolved[] {
  const t = parseTarget(target);
  switch (t.kind) {
    case "quit":
      return [{ kind: "quit" }];
    case "return":
      return [t.expr === undefined ? { kind: "return" } : { kind: "return", expr: t.expr }];
    case "variable":
      return [{ kind: "dynamic", variable: target }];
    case "lettered": {
      const nodes = candidates("lettered", t.base, (name) => byName.has(name)).map((name) => byName.get(name)!);
      if (nodes.length === 0) return [{ kind: "missing", name: target }];
      // With conditions the first candidate whose condition holds wins; a candidate without one is
      // the else. Without any condition the state-history scores decide.
      const conditional = nodes.some((c) => c.boolean_condition !== undefined);
      return nodes.map((c) => ({
        kind: "node",
        name: c.name,
        label: conditional ? (c.boolean_condition ?? "else") : "by state history",
      }));
    }
    case "numbered": {
      const visits = candidates("numbered", t.base, (name) => byName.has(name)).map((name, k) => ({
        name,
        label: `visit ${k + 1}`,
      }));
      if (visits.length === 0) return [{ kind: "missing", name: target }];
      // The last one is where the visits stay.
      visits[visits.length - 1]!.label += "+";
      return [{ kind: "visits", target, visits }];
    }
    case "node":
      return byName.has(target) ? [{ kind: "node", name: target }] : [{ kind: "missing", name: target }];
  }
}

/** Between the parts of one edge's label: a choice's answer, then the target's condition. */
export const LABEL_SEPARATOR = " · ";

function joinLabels(...parts: (string | undefined)[]): string | undefined {
  const present = parts.filter((p): p is string => p !== undefined && p !== "");
  return present.length ? present.join(LABEL_SEPARATOR) : undefined;
}

/** The function a call node calls: the name before `(` in its instruction. */
function calledFunction(node: GraphNode): string | undefined {
  if (!isFunctionKind(node.action)) return undefined;
  const match = /^\s*([A-Za-z_$][\w$]*)\s*\(/.exec(node.instruction ?? "");
  return match?.[1];
}

/**
 * Which nodes belong to which function. The graph does not record it, so it is recovered by
 * following transitions from each entry (main's start and interjection nodes, then each function's
 * entry node), never through calls. A node reached from several places stays with the first.
 */
function assignMembership(graph: Graph, byName: Map<string, GraphNode>): Map<string, number> {
  const owner = new Map<string, number>();
  const visit = (roots: string[], cluster: number) => {
    const stack = [...roots].reverse();
    while (stack.length) {
      const name = stack.pop() as string;
      if (owner.has(name) || !byName.has(name)) continue;
      owner.set(name, cluster);
      const node = byName.get(name) as GraphNode;
      const next = node.transitions
        .flatMap((t) => resolveTarget(t, byName))
        .flatMap((r) => (r.kind === "node" ? [r.name] : r.kind === "visits" ? r.visits.map((v) => v.name) : []));
      for (let i = next.length - 1; i >= 0; i--) stack.push(next[i] as string);
    }
  };
  const start = graph.start ?? (byName.has("start1") ? "start1" : graph.nodes[0]?.name);
  const interjections = graph.nodes.filter((n) => n.condition_interjection !== undefined).map((n) => n.name);
  visit(start === undefined ? interjections : [start, ...interjections], 0);
  Object.values(graph.functions).forEach((info, i) => {
    visit([info.entry], i + 1);
  });
  return owner;
}

/** Builds the picture of `graph`. Works on invalid graphs too: dangling names become `missing` items. */
export function buildDiagram(graph: Graph): Diagram {
  const byName = new Map(graph.nodes.map((n) => [n.name, n]));
  const ids = new Map(graph.nodes.map((n, i) => [n.name, `n${i}`]));
  const functions = Object.entries(graph.functions);
  const owner = assignMembership(graph, byName);

  const clusters: Cluster[] = [
    { id: "f0", title: "main", items: [] },
    ...functions.map(([name, info], i) => ({
      id: `f${i + 1}`,
      title: shorten(`${info.kind} ${name}(${info.params.join(", ")})`),
      items: [],
    })),
  ];
  const unreachable: Cluster = { id: `f${clusters.length}`, title: "not reached from main or any function", items: [] };
  graph.nodes.forEach((node) => {
    const cluster = clusters[owner.get(node.name) ?? -1] ?? unreachable;
    cluster.items.push({ kind: "node", id: ids.get(node.name) as string, node });
  });
  if (unreachable.items.length) clusters.push(unreachable);

  const quit: DiagramItem = { kind: "quit", id: "quit" };
  const edges: DiagramEdge[] = [];
  // A router's own edges follow the edges into it, so each reads as one step further.
  const routed: DiagramEdge[] = [];
  // Pseudo-targets live in the cluster of the node that leads to them, one per cluster and target.
  const pseudo = new Map<string, DiagramItem>();
  const pseudoItem = (
    cluster: Cluster,
    key: string,
    make: (id: string) => DiagramItem,
    onCreate?: (id: string) => void,
  ): string => {
    const full = `${cluster.id}\u0000${key}`;
    let item = pseudo.get(full);
    if (!item) {
      item = make(`${cluster.id}_t${cluster.items.filter((i) => i.kind !== "node").length}`);
      pseudo.set(full, item);
      cluster.items.push(item);
      onCreate?.(item.id);
    }
    return item.id;
  };

  for (const cluster of [...clusters]) {
    for (const item of cluster.items.filter((i): i is Extract<DiagramItem, { kind: "node" }> => i.kind === "node")) {
      const { node } = item;
      const several = node.transitions.length > 1;
      node.transitions.forEach((target, t) => {
        const choice = several ? node.transition_choices?.[t] : undefined;
        for (const r of resolveTarget(target, byName)) {
          let to: string;
          let label = choice;
          switch (r.kind) {
            case "node":
              to = ids.get(r.name) as string;
              label = joinLabels(choice, r.label);
              break;
            case "return":
              to = pseudoItem(cluster, "return", (id) => ({ kind: "return", id }));
              label = joinLabels(choice, r.expr);
              break;
            case "quit":
              to = quit.id;
              break;
            case "dynamic":
              to = pseudoItem(cluster, `dynamic:${r.variable}`, (id) => ({
                kind: "dynamic",
                id,
                variable: r.variable,
              }));
              break;
            case "visits":
              to = pseudoItem(
                cluster,
                `visits:${r.target}`,
                (id) => ({ kind: "visits", id, target: r.target }),
                (id) => {
                  for (const v of r.visits)
                    routed.push({ kind: "transition", from: id, to: ids.get(v.name) as string, label: v.label });
                },
              );
              break;
            case "missing":
              to = pseudoItem(cluster, `missing:${r.name}`, (id) => ({ kind: "missing", id, name: r.name }));
              break;
          }
          edges.push({ kind: "transition", from: item.id, to, ...(label === undefined ? {} : { label }) });
        }
      });
      const callee = calledFunction(node);
      const entry = callee === undefined ? undefined : graph.functions[callee]?.entry;
      if (entry !== undefined && ids.has(entry))
        edges.push({ kind: "call", from: item.id, to: ids.get(entry) as string, label: "call" });
      edges.push(...routed.splice(0));
    }
  }
  const usesQuit = edges.some((e) => e.to === quit.id);
  return { agent: graph.agent, clusters, outside: usesQuit ? [quit] : [], edges };
}

/** One line: control characters and runs of spaces become one space; cut to `max` code points (no emoji is split). */
export function shorten(text: string, max = Infinity): string {
  const chars = Array.from(text.replace(/[\s\u0000-\u001f\u007f]+/g, " ").trim());
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : chars.join("");
}

/** The drawing style an item gets: its action's family, or what pseudo-target it is. */
export type ItemStyle = ActionFamily | "interjection" | "terminal" | "dynamic" | "missing";

export function itemStyle(item: DiagramItem): ItemStyle {
  switch (item.kind) {
    case "return":
    case "quit":
      return "terminal";
    case "dynamic":
    case "missing":
      return item.kind;
    case "visits":
      return "transition";
    case "node": {
      const { node } = item;
      if (node.condition_interjection !== undefined) return "interjection";
      // A built-in action is drawn as its family; a custom action as a transition.
      return familyOf(node.action) ?? "transition";
    }
  }
}

/** The lines of an item's label, before the drawing language escapes them. */
export function itemLines(item: DiagramItem): string[] {
  switch (item.kind) {
    case "return":
    case "quit":
      return [item.kind];
    case "dynamic":
      return [shorten(item.variable)];
    case "visits":
      return [shorten(item.target), "first not yet visited"];
    case "missing":
      return [shorten(`missing: ${item.name}`)];
    case "node": {
      const { node } = item;
      if (item.lines) return item.lines;
      const lines = [shorten(node.name)];
      const assigned = node.assign === undefined ? "" : `${node.assign} = `;
      if (shorten(node.instruction ?? "", 60) !== "")
        lines.push(shorten(`${assigned}${node.action}: ${node.instruction}`, 60));
      else if (node.action !== "transition" || assigned) lines.push(`${assigned}${node.action}`);
      if (node.condition_interjection !== undefined)
        lines.push(shorten(`interjection: ${node.condition_interjection}`, 60));
      return lines;
    }
  }
}
