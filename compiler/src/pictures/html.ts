/**
 * Graph → one self-contained HTML page: the graph drawn as SVG (one column per function, laid out
 * here, no library and no network), each node linked to its line of the agent source, details of
 * a node on click, and with a trace the visits of each node, the transitions taken and the path
 * step by step.
 */
import { familyOf, type Graph, type Loc } from "@autograms/graph";
import type { TraceStep } from "./trace-step.js";
import { viewDiagram, type ViewOptions } from "./fold.js";
import {
  buildDiagram,
  itemLines,
  itemStyle,
  shorten,
  type Diagram,
  type DiagramEdge,
  type DiagramItem,
  type ItemStyle,
} from "./diagram.js";

export interface HtmlOptions extends ViewOptions {
  /** A recorded run (or several) to overlay: visit counts, transitions taken, the path. */
  trace?: readonly TraceStep[];
  /** Where a node's source line opens (default: the graph's source file with `#L<line>`). */
  sourceLink?: (loc: Loc) => string;
  /** The page's title (default: the agent's name). */
  title?: string;
}

const W = 250;
const H = 56;
const GAP = 22;
const LEFT = 60;
const RIGHT = 150;
const TOP = 56;
const COLUMN = LEFT + W + RIGHT;
/** Room left of the first column for the labels of its loops. */
const MARGIN = 70;

interface Box {
  item: DiagramItem;
  x: number;
  y: number;
  h: number;
}

interface Overlay {
  visits: Map<string, number>;
  taken: Map<DiagramEdge, number>;
  steps: { id: string; node: string; text: string }[];
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON inside a script element: nothing in it may end the element or break a line for JavaScript. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

/** The page of the graph; unlike `toSvg` it shows the raw graph unless `view: "code"` is given. */
export function toHtml(graph: Graph, options: HtmlOptions = {}): string {
  const diagram = viewDiagram(buildDiagram(graph), graph, { ...options, view: options.view ?? "raw" });
  const file = graph.source?.file;
  const link = options.sourceLink ?? ((loc: Loc) => `${file ?? ""}#L${loc.line}`);
  const boxes = layout(diagram);
  const overlay = options.trace ? overlayOf(diagram, boxes, options.trace) : null;
  const svg = drawSvg(diagram, boxes, overlay, file, link);
  const nodes: Record<string, unknown> = {};
  for (const box of boxes.values()) {
    if (box.item.kind !== "node") continue;
    const { node } = box.item;
    nodes[box.item.id] = {
      name: node.name,
      where: node.loc && file ? `${file}:${node.loc.line}:${node.loc.column}` : null,
      href: node.loc ? link(node.loc) : null,
      visits: overlay?.visits.get(box.item.id) ?? null,
      fields: node,
    };
  }
  const title = options.title ?? graph.agent;
  const functions = Object.keys(graph.functions).length;
  const summary = [file, `${graph.nodes.length} nodes`, `${functions + 1} function${functions ? "s" : ""}`]
    .filter(Boolean)
    .join(" · ");
  const traced = overlay
    ? ` · trace: ${overlay.steps.length} steps, ${overlay.visits.size} of ${graph.nodes.length} nodes visited`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeXml(title)} · autograms graph</title>
<style>${STYLE}</style>
</head>
<body class="${overlay ? "traced" : ""}">
<header><h1>${escapeXml(title)}</h1><p id="summary">${escapeXml(summary + traced)}</p>
<p class="zoom"><button id="zoom-out" title="smaller">−</button><button id="zoom-in" title="larger">+</button></p></header>
<main>
<div id="canvas">${svg}</div>
<aside id="side">
<section id="details"><p class="hint">Click a node to see its fields and its place in the source.</p></section>
${overlay ? pathSection(overlay) : ""}
</aside>
</main>
<script type="application/json" id="graph-data">${scriptJson({ nodes, steps: overlay?.steps ?? [] })}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/**
 * The graph's picture alone: the SVG of `toHtml`, with its own style, for a page that lays out
 * more than the graph (the server's playground). Each node is a `g.node` with `data-node` set to
 * its name and, in the code view (the default), `data-nodes` listing the nodes folded into it, so
 * a page can light the nodes a run goes through.
 */
export function toSvg(graph: Graph, options: Pick<HtmlOptions, "sourceLink" | "view" | "source"> = {}): string {
  const diagram = viewDiagram(buildDiagram(graph), graph, options);
  const file = graph.source?.file;
  const link = options.sourceLink ?? ((loc: Loc) => `${file ?? ""}#L${loc.line}`);
  return drawSvg(diagram, layout(diagram), null, file, link, GRAPH_STYLE);
}

/** Columns left to right (main first, the outside terminal under main), items top to bottom in graph order. */
function layout(diagram: Diagram): Map<string, Box> {
  const boxes = new Map<string, Box>();
  diagram.clusters.forEach((cluster, c) => {
    const items = c === 0 ? [...cluster.items, ...diagram.outside] : cluster.items;
    let y = TOP + 30;
    for (const item of items) {
      const h = item.kind === "node" ? H : 30;
      boxes.set(item.id, { item, x: MARGIN + c * COLUMN + LEFT, y, h });
      y += h + GAP;
    }
  });
  return boxes;
}

function overlayOf(diagram: Diagram, boxes: Map<string, Box>, trace: readonly TraceStep[]): Overlay {
  const idOf = new Map<string, string>();
  for (const box of boxes.values()) {
    if (box.item.kind !== "node") continue;
    idOf.set(box.item.node.name, box.item.id);
    for (const name of box.item.folded ?? []) idOf.set(name, box.item.id);
  }
  const from = new Map<string, DiagramEdge[]>();
  for (const e of diagram.edges) {
    const list = from.get(e.from);
    if (list) list.push(e);
    else from.set(e.from, [e]);
  }
  const visits = new Map<string, number>();
  const taken = new Map<DiagramEdge, number>();
  const steps: Overlay["steps"] = [];
  const take = (edge: DiagramEdge | undefined) => edge && taken.set(edge, (taken.get(edge) ?? 0) + 1);
  const visit = (id: string, node: string, text: string) => {
    visits.set(id, (visits.get(id) ?? 0) + 1);
    steps.push({ id, node, text });
  };
  // A transition may pass through a pseudo-item (the router of an X.n series) on its way.
  const follow = (a: string, b: string) => {
    const out = from.get(a) ?? [];
    const direct = out.find((e) => e.to === b && e.kind === "transition");
    if (direct) return take(direct);
    for (const e of out) {
      const via = boxes.get(e.to)?.item.kind !== "node" ? (from.get(e.to) ?? []).find((f) => f.to === b) : undefined;
      if (via) {
        take(e);
        return take(via);
      }
    }
  };
  const toKind = (a: string, kind: DiagramItem["kind"]) =>
    take((from.get(a) ?? []).find((e) => boxes.get(e.to)?.item.kind === kind));
  for (const e of trace) {
    const id = idOf.get(e.node);
    if (!id) continue;
    switch (e.kind) {
      case "transition": {
        const to = idOf.get(e.to);
        // A step between nodes folded into one statement is no edge of the picture.
        if (to && to !== id) follow(id, to);
        break;
      }
      case "return":
        toKind(id, "return");
        break;
      case "quit":
        toKind(id, "quit");
        break;
      case "call":
        take((from.get(id) ?? []).find((x) => x.kind === "call"));
        visit(id, e.node, `call ${e.function}(${e.args.map((a) => JSON.stringify(a)).join(", ")})`);
        break;
      case "user":
        steps.push({ id, node: e.node, text: `user: ${shorten(e.text, 80)}` });
        break;
      case "tool_call":
        steps.push({
          id,
          node: e.node,
          text: `tool ${e.tool}(${shorten(e.arguments, 40)}) → ${e.error === undefined ? shorten(JSON.stringify(e.result) ?? "undefined", 40) : `error: ${shorten(e.error, 40)}`}`,
        });
        break;
      case "generate":
      case "exact":
        visit(
          id,
          e.node,
          familyOf(e.base ?? e.action) === "chat"
            ? `agent: ${shorten(String(e.output), 80)}`
            : `${e.action}: ${shorten(String(e.output), 80)}`,
        );
        break;
      case "custom":
        if (e.hook !== "instruction")
          steps.push({
            id,
            node: e.node,
            text: `${e.action} ${e.hook}: ${shorten(JSON.stringify(e.hook === "transition" ? e.target : e.output) ?? "null", 60)}`,
          });
        else
          visit(
            id,
            e.node,
            e.reply !== undefined
              ? `agent: ${shorten(e.reply, 80)}`
              : `${e.action}: ${shorten(JSON.stringify(e.thought ?? e.output) ?? "null", 80)}`,
          );
        break;
      default:
        visit(
          id,
          e.node,
          e.kind === "code"
            ? `code ${shorten(e.code, 60)} → ${shorten(JSON.stringify(e.value) ?? "undefined", 40)}`
            : e.action,
        );
    }
  }
  return { visits, taken, steps };
}

function drawSvg(
  diagram: Diagram,
  boxes: Map<string, Box>,
  overlay: Overlay | null,
  file: string | undefined,
  link: (loc: Loc) => string,
  style?: string,
): string {
  let height = 0;
  for (const b of boxes.values()) height = Math.max(height, b.y + b.h + 40);
  const width = MARGIN + diagram.clusters.length * COLUMN + 20;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" id="graph" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
  );
  if (style !== undefined) out.push(`<style>${style}</style>`);
  out.push(
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker>' +
      '<marker id="arrow-taken" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>',
  );
  diagram.clusters.forEach((cluster, c) => {
    const x = MARGIN + c * COLUMN + 10;
    out.push(
      `<g class="cluster" data-cluster="${cluster.id}"><rect x="${x}" y="${TOP - 36}" width="${COLUMN - 20}" height="${height - TOP + 26}" rx="10"/>` +
        `<text class="cluster-title" x="${x + 14}" y="${TOP - 14}">${escapeXml(shorten(cluster.title, 62))}</text></g>`,
    );
  });
  for (const edge of diagram.edges) out.push(drawEdge(edge, boxes, overlay?.taken.get(edge)));
  for (const box of boxes.values()) out.push(drawItem(box, overlay, file, link));
  out.push("</svg>");
  return out.join("\n");
}

function drawEdge(edge: DiagramEdge, boxes: Map<string, Box>, taken: number | undefined): string {
  const a = boxes.get(edge.from);
  const b = boxes.get(edge.to);
  if (!a || !b) return "";
  let d: string;
  let label: { x: number; y: number; anchor: string } | undefined;
  const sameColumn = a.x === b.x;
  const ay = a.y + a.h / 2;
  const by = b.y + b.h / 2;
  if (sameColumn && b.y > a.y && b.y - (a.y + a.h) <= GAP) {
    d = `M${a.x + W / 2},${a.y + a.h} L${b.x + W / 2},${b.y}`;
    label = { x: a.x + W / 2 + 6, y: a.y + a.h + GAP / 2 + 4, anchor: "start" };
  } else if (sameColumn && b.y > a.y) {
    const bulge = Math.min(RIGHT - 20, 24 + (b.y - a.y) / 8);
    d = `M${a.x + W},${ay} C${a.x + W + bulge},${ay} ${b.x + W + bulge},${by} ${b.x + W},${by}`;
    label = { x: a.x + W + bulge * 0.75 + 4, y: (ay + by) / 2, anchor: "start" };
  } else if (sameColumn) {
    // Back edges (loops) and calls into the same function run on the left.
    const bulge = Math.min(LEFT - 8, 18 + (a.y - b.y) / 12) + (a === b ? 10 : 0);
    const y1 = a === b ? ay + 10 : ay;
    const y2 = a === b ? by - 10 : by;
    d = `M${a.x},${y1} C${a.x - bulge},${y1} ${b.x - bulge},${y2} ${b.x},${y2}`;
    label = { x: a.x - bulge * 0.75 - 4, y: (y1 + y2) / 2, anchor: "end" };
  } else {
    const rightward = b.x > a.x;
    const x1 = rightward ? a.x + W : a.x;
    const x2 = rightward ? b.x : b.x + W;
    const pull = Math.max(60, Math.abs(x2 - x1) / 3);
    d = `M${x1},${ay} C${x1 + (rightward ? pull : -pull)},${ay} ${x2 + (rightward ? -pull : pull)},${by} ${x2},${by}`;
    label = { x: (x1 + x2) / 2, y: (ay + by) / 2 - 4, anchor: "middle" };
  }
  const classes = ["edge", edge.kind, taken ? "taken" : ""].filter(Boolean).join(" ");
  // Labels of left arcs have only the margin between columns to themselves.
  const room = label?.anchor === "end" ? 8 : 28;
  const text = [edge.label ? shorten(edge.label, room) : "", taken ? `×${taken}` : ""].filter(Boolean).join(" ");
  const caption =
    text && label
      ? `<text class="edge-label" x="${label.x.toFixed(1)}" y="${label.y.toFixed(1)}" text-anchor="${label.anchor}">${escapeXml(text)}</text>`
      : "";
  return `<g class="${classes}" data-from="${edge.from}" data-to="${edge.to}"><path d="${d}" marker-end="url(#${taken ? "arrow-taken" : "arrow"})"/>${caption}</g>`;
}

function drawItem(box: Box, overlay: Overlay | null, file: string | undefined, link: (loc: Loc) => string): string {
  const { item, x, y, h } = box;
  const style: ItemStyle = itemStyle(item);
  if (item.kind !== "node") {
    return (
      `<g class="item pseudo s-${style}" data-id="${item.id}"><rect x="${x + W / 2 - 70}" y="${y}" width="140" height="${h}" rx="15"/>` +
      `<text x="${x + W / 2}" y="${y + 19}" text-anchor="middle">${escapeXml(shorten(itemLines(item).join(" "), 22))}</text></g>`
    );
  }
  const visits = overlay?.visits.get(item.id);
  const classes = ["item", "node", `s-${style}`, overlay ? (visits ? "visited" : "unvisited") : ""]
    .filter(Boolean)
    .join(" ");
  const [name = "", lines = ""] = itemLines(item);
  const condition = item.node.boolean_condition;
  const detail = lines || (condition === undefined ? "" : `when ${condition}`);
  const loc = item.node.loc;
  const where = loc
    ? `<a href="${escapeXml(link(loc))}" class="source"><text x="${x + 10}" y="${y + 48}">${escapeXml(`${shortFile(file)}:${loc.line}`)}</text></a>`
    : `<text class="source" x="${x + 10}" y="${y + 48}">(no source location)</text>`;
  const badge = visits
    ? `<g class="badge"><rect x="${x + W - 44}" y="${y - 9}" width="48" height="18" rx="9"/><text x="${x + W - 20}" y="${y + 4}" text-anchor="middle">×${visits}</text></g>`
    : "";
  const folded = item.folded?.length ? ` data-nodes="${escapeXml(item.folded.join(" "))}"` : "";
  return (
    `<g class="${classes}" data-id="${item.id}" data-node="${escapeXml(item.node.name)}"${folded} tabindex="0"><title>${escapeXml(item.node.name)}</title>` +
    `<rect x="${x}" y="${y}" width="${W}" height="${h}" rx="6"/>` +
    `<text class="name" x="${x + 10}" y="${y + 17}">${escapeXml(shorten(name, 34))}</text>` +
    `<text class="detail" x="${x + 10}" y="${y + 33}">${escapeXml(shorten(detail, 40))}</text>${where}${badge}</g>`
  );
}

const shortFile = (file: string | undefined) => (file ? file.split("/").pop()! : "source");

function pathSection(overlay: Overlay): string {
  const items = overlay.steps
    .map((s, i) => `<li data-step="${i}" data-id="${s.id}"><code>${escapeXml(s.node)}</code> ${escapeXml(s.text)}</li>`)
    .join("");
  return `<section id="path"><h2>Path taken</h2>
<p><input type="range" id="step" min="0" max="${Math.max(0, overlay.steps.length - 1)}" value="0" aria-label="step"> <span id="step-label">step 1 of ${overlay.steps.length}</span></p>
<ol id="steps">${items}</ol></section>`;
}

/** The picture's own style (also what `toSvg` puts inside the SVG). */
const GRAPH_STYLE = `
.cluster rect{fill:#f8fafc;stroke:#cbd5e1;stroke-dasharray:6 4}.cluster-title{font-weight:600;fill:#334155}
.item rect{stroke-width:1.5}.item text{fill:#111827;font-size:12px}.item .name{font-weight:600}.item .detail{fill:#374151}.item .source text,.item text.source{fill:#2563eb;font-size:11px}
.node{cursor:pointer}.node:focus{outline:none}.node.selected rect:first-of-type{stroke:#f59e0b;stroke-width:3}.node.current rect:first-of-type{stroke:#dc2626;stroke-width:3.5}
.s-chat rect{fill:#dbeafe;stroke:#1d4ed8}.s-thought rect{fill:#ede9fe;stroke:#6d28d9}.s-prompt rect{fill:#fef9c3;stroke:#a16207}.s-call rect{fill:#dcfce7;stroke:#15803d}
.s-code rect{fill:#f3f4f6;stroke:#4b5563}.s-transition rect{fill:#fff;stroke:#6b7280}.s-interjection rect{fill:#ffedd5;stroke:#c2410c}.s-terminal rect{fill:#111827;stroke:#111827}.s-terminal text{fill:#fff}
.s-dynamic rect{fill:#fce7f3;stroke:#be185d}.s-visits rect{fill:#e0f2fe;stroke:#0369a1}.s-missing rect{fill:#fee2e2;stroke:#b91c1c;stroke-dasharray:4 3}
.edge path{fill:none;stroke:#94a3b8;stroke-width:1.4}.edge.call path{stroke-dasharray:5 4;stroke:#15803d}#arrow path{fill:#94a3b8}#arrow-taken path{fill:#dc2626}
.edge-label{font-size:10.5px;fill:#475569;paint-order:stroke;stroke:#fff;stroke-width:3px}
.traced .node.unvisited{opacity:.42}.traced .edge:not(.taken){opacity:.45}.edge.taken path{stroke:#dc2626;stroke-width:2.4}.edge.taken .edge-label{fill:#b91c1c;font-weight:600}
.badge rect{fill:#dc2626;stroke:none}.badge text{fill:#fff;font-weight:700;font-size:11px}
`;

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:13px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;color:#111827;background:#f8fafc;display:flex;flex-direction:column;height:100vh}
header{display:flex;align-items:baseline;gap:16px;padding:8px 16px;border-bottom:1px solid #e5e7eb;background:#fff}h1{font-size:18px;margin:0}#summary{margin:0;color:#4b5563}
.zoom{margin:0 0 0 auto}.zoom button{width:28px;height:24px;margin-left:4px}
main{flex:1;display:flex;min-height:0}#canvas{flex:1;overflow:auto;background:#fff}#side{width:380px;overflow:auto;border-left:1px solid #e5e7eb;padding:10px 14px;background:#f9fafb}
#details h2,#path h2{font-size:14px;margin:6px 0}#details dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;margin:0}#details dt{color:#6b7280}#details dd{margin:0;white-space:pre-wrap;word-break:break-word}
#details pre{background:#fff;border:1px solid #e5e7eb;padding:6px;overflow:auto;font-size:11.5px}.hint{color:#6b7280}
#steps{padding-left:22px;margin:4px 0;font-size:12px}#steps li{cursor:pointer;padding:1px 2px}#steps li.current{background:#fee2e2}#steps code{color:#1d4ed8}#step{width:220px;vertical-align:middle}
${GRAPH_STYLE}`;

const SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById("graph-data").textContent);
  var svg = document.getElementById("graph");
  var details = document.getElementById("details");
  function el(tag, text, cls) { var e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }
  function select(id) {
    var info = data.nodes[id];
    if (!info) return;
    svg.querySelectorAll(".node.selected").forEach(function (n) { n.classList.remove("selected"); });
    var g = svg.querySelector('.node[data-id="' + id + '"]');
    if (g) g.classList.add("selected");
    details.replaceChildren();
    details.appendChild(el("h2", info.name));
    var dl = el("dl");
    function row(k, v) { if (v === undefined || v === null || v === "") return; dl.appendChild(el("dt", k)); var dd = el("dd"); if (v instanceof Node) dd.appendChild(v); else dd.textContent = String(v); dl.appendChild(dd); }
    var f = info.fields;
    if (info.where) { var a = el("a", info.where); a.href = info.href; a.className = "where"; row("source", a); } else row("source", "(none)");
    row("action", f.action);
    row("instruction", f.instruction);
    row("assign", f.assign);
    row("transitions", (f.transitions || []).join("\\n"));
    row("choices", (f.transition_choices || []).join("\\n"));
    row("question", f.transition_question);
    row("condition", f.boolean_condition);
    if (info.visits !== null) row("visits", info.visits);
    details.appendChild(dl);
    details.appendChild(el("h2", "All fields"));
    details.appendChild(el("pre", JSON.stringify(f, null, 2)));
  }
  svg.addEventListener("click", function (e) {
    var g = e.target.closest && e.target.closest(".node");
    if (!g || e.target.closest("a")) return;
    select(g.getAttribute("data-id"));
  });
  svg.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && e.target.classList && e.target.classList.contains("node")) select(e.target.getAttribute("data-id"));
  });
  var scale = 1, w = svg.width.baseVal.value, h = svg.height.baseVal.value;
  function zoom(by) { scale = Math.min(3, Math.max(0.25, scale * by)); svg.setAttribute("width", w * scale); svg.setAttribute("height", h * scale); }
  document.getElementById("zoom-in").addEventListener("click", function () { zoom(1.25); });
  document.getElementById("zoom-out").addEventListener("click", function () { zoom(0.8); });
  var slider = document.getElementById("step");
  if (!slider || !data.steps.length) return;
  var items = document.querySelectorAll("#steps li");
  function show(i) {
    var step = data.steps[i];
    svg.querySelectorAll(".node.current").forEach(function (n) { n.classList.remove("current"); });
    var g = svg.querySelector('.node[data-id="' + step.id + '"]');
    if (g) { g.classList.add("current"); if (g.scrollIntoView) g.scrollIntoView({ block: "nearest", inline: "nearest" }); }
    items.forEach(function (li) { li.classList.remove("current"); });
    items[i].classList.add("current");
    slider.value = String(i);
    document.getElementById("step-label").textContent = "step " + (i + 1) + " of " + data.steps.length + ": " + step.node;
  }
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  items.forEach(function (li) { li.addEventListener("click", function () { show(Number(li.getAttribute("data-step"))); select(li.getAttribute("data-id")); }); });
  show(0);
})();
`;
