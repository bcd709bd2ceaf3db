/**
 * The picture at the level of the code: the compiler's own nodes folded into the statements they
 * came from. A loop's machinery (its condition nodes, and a `for…of`'s iterable, counter, item and
 * step) becomes one node that reads as the loop's head; an `if`'s branch nodes fold into the first
 * statement of their branch (the edge into it keeps the condition as its label); temporaries are
 * read as what they hold. Every node of the graph stays represented: a shown node lists the nodes
 * folded into it, so a run that passes through a folded node can light its stand-in.
 */
import { isFunctionKind, type Graph, type GraphNode, type Loc } from "@autograms/graph";
import { LOOP_PREFIX, TEMP_PREFIX } from "../compiler-variables.js";
import { LABEL_SEPARATOR, shorten, type Cluster, type Diagram, type DiagramEdge, type DiagramItem } from "./diagram.js";

/** `code`: compiler nodes folded, labels from the source (the default); `raw`: every node of the graph under its own name. */
export type GraphView = "code" | "raw";

export interface ViewOptions {
  /** What the picture shows (default `code`). */
  view?: GraphView;
  /** The agent's source text, whose lines the nodes' `loc` point into: labels then quote the code itself. */
  source?: string;
}

/** The constructs whose control nodes make one loop head. */
const LOOPS: Record<string, string> = { for: "for", for_of: "for…of", while: "while", do_while: "do…while" };

type NodeItem = Extract<DiagramItem, { kind: "node" }>;

/** Names the compiler made: a statement's nodes are `<function>.<construct>_<hash>...`, user names have no dot. */
const isInternalName = (name: string) => name.includes(".");

const locKey = (loc: Loc | undefined) => (loc ? `${loc.line}:${loc.column}-${loc.endLine}:${loc.endColumn}` : "");

/** The text a `loc` covers, on one line. */
function sourceAt(lines: string[] | undefined, loc: Loc | undefined): string | undefined {
  if (!lines || !loc) return undefined;
  const first = lines[loc.line - 1];
  if (first === undefined) return undefined;
  const text = loc.endLine === loc.line ? first.slice(loc.column - 1, loc.endColumn - 1) : first.slice(loc.column - 1);
  const one = shorten(text).replace(/;$/, "");
  return one === "" ? undefined : one;
}

/** Part of a loop's machinery: its condition nodes, and the code nodes that walk a `for…of`'s hidden counter. */
function isLoopPart(node: GraphNode): boolean {
  if (node.def_type === undefined || !(node.def_type in LOOPS)) return false;
  return node.action === "transition" || (node.action === "code" && (node.instruction ?? "").includes(LOOP_PREFIX));
}

/** A node that only routes: no instruction, no choice for the model, not a function's entry. */
function isControl(node: GraphNode, graph: Graph): boolean {
  return (
    node.action === "transition" &&
    (node.instruction ?? "") === "" &&
    node.def_type !== "function" &&
    node.name !== graph.start &&
    node.condition_interjection === undefined &&
    node.transition_choices === undefined &&
    node.transition_question === undefined
  );
}

export function viewDiagram(diagram: Diagram, graph: Graph, options: ViewOptions): Diagram {
  return options.view === "raw" ? diagram : foldDiagram(diagram, graph, options.source);
}

export function foldDiagram(diagram: Diagram, graph: Graph, source?: string): Diagram {
  const lines = source?.split(/\r?\n/);
  const items = new Map<string, NodeItem>();
  for (const c of diagram.clusters) for (const i of c.items) if (i.kind === "node") items.set(i.id, i);
  const out = new Map<string, DiagramEdge[]>();
  for (const e of diagram.edges) out.set(e.from, [...(out.get(e.from) ?? []), e]);

  // Loop parts of one statement (same function, same place) fold into the first of them.
  const standIn = new Map<string, string>();
  for (const cluster of diagram.clusters) {
    const heads = new Map<string, string>();
    for (const item of cluster.items) {
      if (item.kind !== "node" || !isLoopPart(item.node)) continue;
      const key = `${item.node.def_type}@${locKey(item.node.loc)}`;
      const head = heads.get(key);
      if (head === undefined) heads.set(key, item.id);
      else standIn.set(item.id, head);
    }
  }
  // A branch node with one way on folds into where it leads (followed through other such nodes).
  const forward = (id: string, seen: Set<string>): string => {
    const item = items.get(id);
    if (!item || standIn.has(id) || seen.has(id) || !isControl(item.node, graph) || isLoopPart(item.node)) return id;
    const next = (out.get(id) ?? []).filter((e) => e.kind === "transition");
    if (next.length !== 1 || !items.has((next[0] as DiagramEdge).to)) return id;
    seen.add(id);
    return resolve(forward((next[0] as DiagramEdge).to, seen));
  };
  const resolve = (id: string): string => standIn.get(id) ?? id;
  for (const id of items.keys()) {
    const to = forward(id, new Set());
    if (to !== id) standIn.set(id, to);
  }

  const temporaries = temporaryValues(graph);
  const folded = new Map<string, string[]>();
  for (const [id, to] of standIn) folded.set(to, [...(folded.get(to) ?? []), (items.get(id) as NodeItem).node.name]);
  const clusters: Cluster[] = diagram.clusters
    .map((c) => ({
      ...c,
      items: c.items
        .filter((i) => !standIn.has(i.id))
        .map((i) =>
          i.kind === "node"
            ? { ...i, folded: folded.get(i.id) ?? [], lines: codeLines(i.node, graph, lines, temporaries) }
            : i,
        ),
    }))
    .filter((c, i) => i === 0 || c.items.length > 0);

  const edges: DiagramEdge[] = [];
  const seen = new Set<string>();
  for (const e of diagram.edges) {
    const from = resolve(e.from);
    const to = resolve(e.to);
    // Steps inside one folded statement are not edges of the picture.
    if (from === to && e.from !== e.to) continue;
    const label = loopLabel(e, items, temporaries);
    const key = `${e.kind}\u0000${from}\u0000${to}\u0000${label ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    edges.push({ kind: e.kind, from, to, ...(label === undefined ? {} : { label }) });
  }
  return { ...diagram, clusters, edges };
}

/**
 * An edge's label once its ends are folded: the way into a loop head keeps no loop condition (they
 * belong to the head's own ways out), and a loop head's ways out read as its condition or `done`.
 */
function loopLabel(
  edge: DiagramEdge,
  items: Map<string, NodeItem>,
  temporaries: Map<string, string>,
): string | undefined {
  const from = items.get(edge.from)?.node;
  const to = items.get(edge.to)?.node;
  if (to && isLoopPart(to) && edge.label !== undefined) {
    // The `X.*` resolution appended the target's condition; a choice's answer before it stays.
    const condition = to.action === "transition" ? (to.boolean_condition ?? "else") : undefined;
    if (condition !== undefined && edge.label === condition) return undefined;
    const suffix = `${LABEL_SEPARATOR}${condition}`;
    return readable(
      condition !== undefined && edge.label.endsWith(suffix) ? edge.label.slice(0, -suffix.length) : edge.label,
      temporaries,
    );
  }
  if (from && isLoopPart(from) && from.action === "transition" && edge.label === undefined) {
    return from.boolean_condition === undefined ? "done" : (readable(from.boolean_condition, temporaries) ?? "next");
  }
  return edge.label === undefined ? undefined : readable(edge.label, temporaries);
}

/** What each compiler temporary holds: the call whose result it keeps. */
function temporaryValues(graph: Graph): Map<string, string> {
  const held = new Map<string, string>();
  for (const n of graph.nodes)
    if (n.assign?.startsWith(TEMP_PREFIX) && n.instruction) held.set(n.assign, shorten(n.instruction));
  return held;
}

/** A temporary where text mentions it, with the braces and `$` signs around its name. */
const TEMPORARY_IN_TEXT = new RegExp(String.raw`\$?\$?\{?(${TEMP_PREFIX}\w+)\}?`, "g");

/** Text with each temporary replaced by what it holds (`…` when unknown); `undefined` when loop machinery would still show. */
function readable(text: string, temporaries: Map<string, string>): string | undefined {
  const replaced = text.replace(TEMPORARY_IN_TEXT, (whole, name: string) => {
    const value = temporaries.get(name);
    if (value === undefined) return "…";
    return whole.startsWith("$") ? `{${value}}` : value;
  });
  return replaced.includes(LOOP_PREFIX) ? undefined : replaced;
}

/** A shown node's label in the code view: its own name when the user gave one, else the code it runs. */
function codeLines(
  node: GraphNode,
  graph: Graph,
  lines: string[] | undefined,
  temporaries: Map<string, string>,
): string[] {
  if (node.def_type === "function" || node.name === graph.start) {
    const info = graph.functions[node.name];
    return info ? [shorten(node.name), shorten(`${node.name}(${info.params.join(", ")})`, 60)] : [shorten(node.name)];
  }
  const code = isLoopPart(node) ? loopHead(node, lines) : sourceAt(lines, node.loc);
  const did = describe(node, temporaries);
  if (!isInternalName(node.name)) return [shorten(node.name), did ?? code ?? node.action];
  if (code !== undefined) return [code, did !== undefined && plain(did) !== plain(code) ? did : node.action];
  return [did ?? node.action];
}

/** Code as compared for saying the same: without `this.` and the closing semicolon. */
const plain = (code: string) => code.replace(/\bthis\./g, "").replace(/;$/, "");

/** A loop's head as written (`for (const unit of units) {`), or its kind and line without the source. */
function loopHead(node: GraphNode, lines: string[] | undefined): string {
  const head = sourceAt(lines, node.loc && { ...node.loc, endLine: node.loc.line + 1 });
  const kind = LOOPS[node.def_type ?? ""] ?? "loop";
  return head ?? `${kind} loop${node.loc ? ` (line ${node.loc.line})` : ""}`;
}

/** What a node does, as the source would say it. */
function describe(node: GraphNode, temporaries: Map<string, string>): string | undefined {
  if (isLoopPart(node)) return `${LOOPS[node.def_type ?? ""] ?? "loop"} loop`;
  const instruction = readable(node.instruction ?? "", temporaries) ?? "";
  const assigned = node.assign === undefined || node.assign.startsWith(TEMP_PREFIX) ? "" : `${node.assign} = `;
  if (node.action === "code")
    return instruction === "" ? undefined : node.def_type === "return" ? `return ${instruction}` : instruction;
  if (instruction === "") return node.action === "transition" ? undefined : `${assigned}${node.action}`;
  if (isFunctionKind(node.action)) return `${assigned}${instruction}`;
  return `${assigned}${node.action}: ${instruction}`;
}
