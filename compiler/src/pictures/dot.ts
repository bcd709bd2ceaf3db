/** Graph → Graphviz DOT: the same picture as the Mermaid export, for `dot -Tsvg`. */
import type { Graph } from "@autograms/graph";
import { viewDiagram, type ViewOptions } from "./fold.js";
import { buildDiagram, itemLines, itemStyle, shorten, type DiagramItem, type ItemStyle } from "./diagram.js";

/**
 * A DOT double-quoted string. Backslashes are doubled first because Graphviz gives `\n`, `\l`,
 * `\N`, `\G` ... meaning inside labels; a line break of the text becomes `\n` (centred line).
 */
function quoteDot(text: string): string {
  let out = "";
  for (const ch of text) {
    if (ch === "\\") out += "\\\\";
    else if (ch === '"') out += '\\"';
    else if (ch === "\n" || ch === "\u2028" || ch === "\u2029") out += "\\n";
    else if (ch === "\r") continue;
    else if (/[\u0000-\u001f\u007f]/.test(ch)) out += " ";
    else out += ch;
  }
  return `"${out}"`;
}

const NODE_ATTRS: Record<ItemStyle, string> = {
  chat: 'shape=box, style=filled, fillcolor="#dbeafe", color="#1d4ed8"',
  thought: 'shape=box, style="rounded,filled", fillcolor="#ede9fe", color="#6d28d9"',
  prompt: 'shape=note, style=filled, fillcolor="#fef9c3", color="#a16207"',
  call: 'shape=component, style=filled, fillcolor="#dcfce7", color="#15803d"',
  code: 'shape=parallelogram, style=filled, fillcolor="#f3f4f6", color="#4b5563"',
  transition: 'shape=diamond, color="#6b7280"',
  interjection: 'shape=hexagon, style=filled, fillcolor="#ffedd5", color="#c2410c"',
  terminal: 'shape=oval, style=filled, fillcolor="#111827", fontcolor="#ffffff"',
  dynamic: 'shape=trapezium, style=filled, fillcolor="#fce7f3", color="#be185d"',
  missing: 'shape=box, style="dashed,filled", fillcolor="#fee2e2", color="#b91c1c"',
};

function itemLine(item: DiagramItem): string {
  return `${quoteDot(item.id)} [label=${quoteDot(itemLines(item).join("\n"))}, ${NODE_ATTRS[itemStyle(item)]}];`;
}

/** The raw graph unless `view: "code"` is given. */
export function toDot(graph: Graph, options: ViewOptions = {}): string {
  const diagram = viewDiagram(buildDiagram(graph), graph, { ...options, view: options.view ?? "raw" });
  const lines = [
    `digraph ${quoteDot(diagram.agent)} {`,
    `  label=${quoteDot(diagram.agent)};`,
    "  labelloc=t;",
    '  node [fontname="Helvetica", fontsize=11];',
    '  edge [fontname="Helvetica", fontsize=10];',
  ];
  for (const cluster of diagram.clusters) {
    lines.push(`  subgraph ${quoteDot(`cluster_${cluster.id}`)} {`);
    lines.push(`    label=${quoteDot(cluster.title)};`);
    for (const item of cluster.items) lines.push(`    ${itemLine(item)}`);
    lines.push("  }");
  }
  for (const item of diagram.outside) lines.push(`  ${itemLine(item)}`);
  for (const edge of diagram.edges) {
    const text = shorten(edge.label ?? "", 40);
    const attrs = [
      ...(text === "" ? [] : [`label=${quoteDot(text)}`]),
      ...(edge.kind === "call" ? ["style=dashed", "constraint=false"] : []),
    ];
    lines.push(`  ${quoteDot(edge.from)} -> ${quoteDot(edge.to)}${attrs.length ? ` [${attrs.join(", ")}]` : ""};`);
  }
  lines.push("}");
  return `${lines.join("\n")}\n`;
}
