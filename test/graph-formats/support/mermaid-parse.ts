// Reads Mermaid text with Mermaid's own flowchart parser (needs a DOM: run under jsdom) and
// returns what a renderer would show: node labels, edge labels and subgraphs, entities decoded.
import mermaid from "mermaid";

export interface ParsedFlowchart {
  vertices: Map<string, { text: string; type: string | undefined; classes: string[] }>;
  edges: { start: string; end: string; text: string; stroke: string }[];
  subgraphs: { id: string; title: string; nodes: string[] }[];
}

// What mermaid.render does to the text before parsing (mermaid's encodeEntities).
function encodeEntities(text: string): string {
  return text
    .replace(/style.*:\S*#.*;/g, (s) => s.slice(0, -1))
    .replace(/classDef.*:\S*#.*;/g, (s) => s.slice(0, -1))
    .replace(/#\w+;/g, (s) => {
      const inner = s.slice(1, -1);
      return /^\+?\d+$/.test(inner) ? `ﬂ°°${inner}¶ß` : `ﬂ°${inner}¶ß`;
    });
}

const NAMED: Record<string, string> = { quot: '"', amp: "&", lt: "<", gt: ">", nbsp: "\u00a0" };

// What the browser shows: mermaid's decodeEntities, then HTML entities and <br/> line breaks.
export function decodeLabel(text: string): string {
  return text
    .replace(/ﬂ°°/g, "&#")
    .replace(/ﬂ°/g, "&")
    .replace(/¶ß/g, ";")
    .replace(/<br\s*\/?>/g, "\n")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&(\w+);/g, (all, name: string) => NAMED[name] ?? all);
}

let initialized = false;

export async function parseFlowchart(text: string): Promise<ParsedFlowchart> {
  if (!initialized) {
    // GitHub renders with the strict security level, which sends every label through DOMPurify.
    mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
    initialized = true;
  }
  // getDiagramFromText parses (what mermaid.parse does too: calling both read the text twice) and
  // throws on text Mermaid cannot read.
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(encodeEntities(text));
  // The flowchart database's accessors; mermaid types them loosely.
  const db = diagram.db as unknown as {
    getVertices(): Map<string, { id: string; text?: string; type?: string; classes: string[] }>;
    getEdges(): { start: string; end: string; text?: string; stroke?: string }[];
    getSubGraphs(): { id: string; title: string; nodes: string[] }[];
  };
  const vertices = new Map<string, { text: string; type: string | undefined; classes: string[] }>();
  for (const [id, v] of db.getVertices())
    vertices.set(id, { text: decodeLabel(v.text ?? id), type: v.type, classes: v.classes });
  return {
    vertices,
    edges: db
      .getEdges()
      .map((e) => ({ start: e.start, end: e.end, text: decodeLabel(e.text ?? ""), stroke: e.stroke ?? "normal" })),
    subgraphs: db.getSubGraphs().map((s) => ({ id: s.id, title: decodeLabel(s.title), nodes: [...s.nodes] })),
  };
}
