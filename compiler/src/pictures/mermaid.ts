/**
 * Graph → Mermaid flowchart, renderable by GitHub in a ```mermaid block: one subgraph per function,
 * decision edges labelled with their answers or conditions.
 */
import type { Graph } from "@autograms/graph";
import { viewDiagram, type ViewOptions } from "./fold.js";
import { buildDiagram, itemLines, itemStyle, shorten, type DiagramItem, type ItemStyle } from "./diagram.js";

/**
 * Text inside a quoted Mermaid label. Mermaid decodes `#<code>;` entities when it renders, so
 * every character its grammar or its preprocessing could take for syntax is written as one:
 * quotes end the label, `#` starts an entity, `<`/`>`/`&` would be HTML, `|` ends an edge label,
 * a backtick opens a Markdown string, `;` ends a statement, and `:` would let Mermaid's
 * `style ...:#...;` rewrite (applied to every line before parsing) eat an entity's `;`.
 */
function escapeMermaid(text: string): string {
  let out = "";
  for (const ch of text) {
    if (ch === "\n" || ch === "\u2028" || ch === "\u2029") out += "<br/>";
    else if (ch === "\r") continue;
    else if (/[\u0000-\u001f\u007f]/.test(ch)) out += " ";
    else if (`"#&<>|\`;:`.includes(ch)) out += `#${ch.codePointAt(0)};`;
    else out += ch;
  }
  return out;
}

const SHAPES: Record<ItemStyle, [string, string]> = {
  chat: ["[", "]"],
  thought: ["(", ")"],
  prompt: [">", "]"],
  call: ["[[", "]]"],
  code: ["[/", "/]"],
  transition: ["{", "}"],
  interjection: ["{{", "}}"],
  terminal: ["([", "])"],
  dynamic: ["[/", "\\]"],
  missing: ["[", "]"],
};

const CLASSES: Record<ItemStyle, string> = {
  chat: "fill:#dbeafe,stroke:#1d4ed8,color:#111",
  thought: "fill:#ede9fe,stroke:#6d28d9,color:#111",
  prompt: "fill:#fef9c3,stroke:#a16207,color:#111",
  call: "fill:#dcfce7,stroke:#15803d,color:#111",
  code: "fill:#f3f4f6,stroke:#4b5563,color:#111",
  transition: "fill:#ffffff,stroke:#6b7280,color:#111",
  interjection: "fill:#ffedd5,stroke:#c2410c,color:#111",
  terminal: "fill:#111827,stroke:#111827,color:#ffffff",
  dynamic: "fill:#fce7f3,stroke:#be185d,color:#111",
  missing: "fill:#fee2e2,stroke:#b91c1c,color:#111,stroke-dasharray:4 3",
};

function itemLine(item: DiagramItem): string {
  const [open, close] = SHAPES[itemStyle(item)];
  return `${item.id}${open}"${itemLines(item).map(escapeMermaid).join("<br/>")}"${close}`;
}

/** The raw graph unless `view: "code"` is given. */
export function toMermaid(graph: Graph, options: ViewOptions = {}): string {
  const diagram = viewDiagram(buildDiagram(graph), graph, { ...options, view: options.view ?? "raw" });
  const lines = ["flowchart TD"];
  for (const cluster of diagram.clusters) {
    lines.push(`  subgraph ${cluster.id} ["${escapeMermaid(cluster.title)}"]`);
    for (const item of cluster.items) lines.push(`    ${itemLine(item)}`);
    lines.push("  end");
  }
  for (const item of diagram.outside) lines.push(`  ${itemLine(item)}`);
  for (const edge of diagram.edges) {
    const arrow = edge.kind === "call" ? "-.->" : "-->";
    const text = shorten(edge.label ?? "", 40);
    const label = text === "" ? "" : `|"${escapeMermaid(text)}"|`;
    lines.push(`  ${edge.from} ${arrow}${label} ${edge.to}`);
  }
  const byStyle = new Map<ItemStyle, string[]>();
  for (const item of [...diagram.clusters.flatMap((c) => c.items), ...diagram.outside]) {
    const style = itemStyle(item);
    byStyle.set(style, [...(byStyle.get(style) ?? []), item.id]);
  }
  for (const [style, ids] of byStyle) {
    lines.push(`  classDef s_${style} ${CLASSES[style]}`);
    lines.push(`  class ${ids.join(",")} s_${style}`);
  }
  return `${lines.join("\n")}\n`;
}
