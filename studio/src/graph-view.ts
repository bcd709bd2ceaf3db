/** The graph: the node being run is lit, the nodes the run went through are marked. */
import { request } from "./api.js";
import type { App } from "./app.js";
import { el } from "./dom.js";
import { nodeLabel } from "./node-label.js";

let scale = 1;

/**
 * The drawn nodes that stand for node `name`: its own, or (in the code view, where the compiler's
 * nodes are folded into the statements they came from) the one it is folded into.
 */
export function nodeEls(app: App, name: string): NodeListOf<Element> {
  const n = CSS.escape(name);
  return app.ui.graph.querySelectorAll(`[data-node="${n}"], [data-nodes~="${n}"]`);
}

// The marks by node name, so that a redrawn picture (the other view) shows them again.
const marks: { passed: string[]; lit: string | null } = { passed: [], lit: null };

export function clearMarks(app: App): void {
  for (const n of app.ui.graph.querySelectorAll(".lit, .passed")) n.classList.remove("lit", "passed");
  app.ui.lit.textContent = "";
  delete app.ui.lit.dataset.node;
  app.ui.lit.removeAttribute("title");
  marks.passed = [];
  marks.lit = null;
}

export function light(app: App, name: string): void {
  for (const n of app.ui.graph.querySelectorAll(".lit")) {
    n.classList.remove("lit");
    n.classList.add("passed");
  }
  if (marks.lit !== null) marks.passed.push(marks.lit);
  const found = nodeEls(app, name);
  for (const n of found) {
    n.classList.add("lit");
    n.classList.remove("passed");
  }
  marks.lit = name;
  // The label shows the line for a node the compiler named; the node itself stays on the element.
  app.ui.lit.dataset.node = name;
  app.ui.lit.title = name;
  app.ui.lit.textContent = nodeLabel(app.state.agent?.graph, name);
  app.ui.lit.classList.toggle("idle", !app.state.running);
  found[0]?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
}

export function showPath(app: App, trace: string[] | undefined): void {
  clearMarks(app);
  const names = trace ?? [];
  for (const name of names) for (const n of nodeEls(app, name)) n.classList.add("passed");
  marks.passed = names.slice(0, -1);
  const last = names[names.length - 1];
  if (last !== undefined) light(app, last);
}

/** The marks again, on a picture just drawn. */
function remark(app: App): void {
  const { passed, lit } = marks;
  for (const name of passed) for (const n of nodeEls(app, name)) n.classList.add("passed");
  if (lit !== null) for (const n of nodeEls(app, lit)) n.classList.add("lit");
}

/** The "raw graph" box: off, the picture folds the compiler's nodes into the statements they came from. */
function rawBox(app: App): HTMLInputElement | null {
  const box = document.getElementById("raw-graph") as HTMLInputElement | null;
  if (box && !box.dataset.wired) {
    box.dataset.wired = "true";
    box.addEventListener("change", () => void drawGraph(app));
  }
  return box;
}

export async function drawGraph(app: App): Promise<void> {
  const raw = rawBox(app);
  const res = await request(`playground/graph.svg${raw?.checked ? "?view=raw" : ""}`);
  if (res.ok) {
    app.ui.graph.innerHTML = await res.text();
    for (const a of app.ui.graph.querySelectorAll("a")) a.setAttribute("target", "_blank");
    scale = 1;
    remark(app);
    return;
  }
  if (raw) raw.disabled = true;
  // Without a picture (the server was given no drawing function): the nodes as a list.
  const nodes = (app.state.agent?.graph.nodes ?? []).map((n) =>
    el("li", { "data-node": n.name }, [el("code", { text: n.name }), el("span", { text: ` ${n.action}` })]),
  );
  app.ui.graph.replaceChildren(el("ul", { class: "node-list" }, nodes));
}

export function zoom(app: App, by: number): void {
  const svg = app.ui.graph.querySelector("svg");
  if (!svg) return;
  if (!svg.dataset.w) {
    svg.dataset.w = svg.getAttribute("width") ?? "";
    svg.dataset.h = svg.getAttribute("height") ?? "";
  }
  scale = Math.min(3, Math.max(0.25, scale * by));
  svg.setAttribute("width", String(Number(svg.dataset.w) * scale));
  svg.setAttribute("height", String(Number(svg.dataset.h) * scale));
}
