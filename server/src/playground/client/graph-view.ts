/** The graph: the node being run is lit, the nodes the run went through are marked. */
import { request } from "./api.js";
import type { App } from "./app.js";
import { el } from "./dom.js";

function nodeEls(app: App, name: string): NodeListOf<Element> {
  return app.ui.graph.querySelectorAll(`[data-node="${CSS.escape(name)}"]`);
}

export function clearMarks(app: App): void {
  for (const n of app.ui.graph.querySelectorAll(".lit, .passed")) n.classList.remove("lit", "passed");
  app.ui.lit.textContent = "";
}

export function light(app: App, name: string): void {
  for (const n of app.ui.graph.querySelectorAll(".lit")) {
    n.classList.remove("lit");
    n.classList.add("passed");
  }
  const found = nodeEls(app, name);
  for (const n of found) {
    n.classList.add("lit");
    n.classList.remove("passed");
  }
  app.ui.lit.textContent = name;
  app.ui.lit.classList.toggle("idle", !app.state.running);
  found[0]?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
}

export function showPath(app: App, trace: string[] | undefined): void {
  clearMarks(app);
  let last: string | null = null;
  for (const name of trace ?? []) {
    for (const n of nodeEls(app, name)) n.classList.add("passed");
    last = name;
  }
  if (last) light(app, last);
}

export async function drawGraph(app: App): Promise<void> {
  const res = await request("playground/graph.svg");
  if (res.ok) {
    app.ui.graph.innerHTML = await res.text();
    for (const a of app.ui.graph.querySelectorAll("a")) a.setAttribute("target", "_blank");
    return;
  }
  // Without a picture (the server was given no drawing function): the nodes as a list.
  const list = el("ul", { class: "node-list" });
  for (const n of app.state.agent?.graph.nodes ?? []) {
    list.appendChild(el("li", { "data-node": n.name }, [el("code", { text: n.name }), el("span", { text: ` ${n.action}` })]));
  }
  app.ui.graph.replaceChildren(list);
}

let scale = 1;
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
