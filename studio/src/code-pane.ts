/**
 * The code pane: the agent's source and its graph as two tabs, and what a click on either shows
 * (the nodes of a source line, a node's line). A node chosen in one is shown in the other.
 */
import type { App } from "./app.js";
import { el } from "./dom.js";
import { nodeEls } from "./graph-view.js";
import { nodesAtLine, selectLine, selectNodeLine, showFile } from "./source-view.js";
import type { GraphNode } from "./types.js";

export function showTab(app: App, tab: "source" | "graph"): void {
  const { ui } = app;
  const source = tab === "source" && !ui.sourceTab.hidden;
  ui.source.hidden = !source;
  ui.graph.hidden = source;
  ui.fileSelect.hidden = !source || ui.fileSelect.options.length < 2;
  ui.sourceTab.setAttribute("aria-selected", String(source));
  ui.graphTab.setAttribute("aria-selected", String(!source));
}

function chooseInGraph(app: App, name: string | null): void {
  for (const n of app.ui.graph.querySelectorAll(".chosen")) n.classList.remove("chosen");
  if (name) for (const n of nodeEls(app, name)) n.classList.add("chosen");
}

/** The panel above the code listing the chosen nodes: name, action, instruction, line. */
function showNodes(app: App, nodes: GraphNode[], line: number | null): void {
  const { ui } = app;
  ui.nodeInfo.hidden = nodes.length === 0;
  ui.nodeInfo.replaceChildren(
    ...nodes.map((n) =>
      el("div", { class: "node-detail", "data-node-info": n.name }, [
        el("div", { class: "node" }, [
          el("code", { text: n.name }),
          el("span", { class: "action", text: n.action }),
          line === null ? null : el("span", { class: "action", text: `line ${line}` }),
        ]),
        n.instruction ? el("div", { class: "instruction", text: n.instruction }) : null,
      ]),
    ),
  );
}

/** A click on a line of the agent's source: its nodes, marked on the graph too. */
export function chooseLine(app: App, line: number): void {
  const nodes = nodesAtLine(line);
  if (!nodes.length) return;
  selectLine(app, line);
  showNodes(app, nodes, line);
  chooseInGraph(app, nodes[0]?.name ?? null);
}

/** A click on a node of the graph: the node, and its line in the source. */
export function chooseNode(app: App, name: string): void {
  const node = app.state.agent?.graph.nodes.find((n) => n.name === name);
  if (!node) return;
  chooseInGraph(app, name);
  const line = app.ui.sourceTab.hidden ? null : selectNodeLine(app, name);
  showNodes(app, [node], line);
}

export function wireCodePane(app: App): void {
  const { ui } = app;
  ui.sourceTab.addEventListener("click", () => showTab(app, "source"));
  ui.graphTab.addEventListener("click", () => showTab(app, "graph"));
  ui.fileSelect.addEventListener("change", () => showFile(app, Number(ui.fileSelect.value)));
  const lineOf = (target: EventTarget | null): number | null => {
    const line = (target as Element | null)?.closest?.(".src-line.has-node")?.getAttribute("data-line");
    return line ? Number(line) : null;
  };
  ui.source.addEventListener("click", (ev) => {
    const line = lineOf(ev.target);
    if (line !== null) chooseLine(app, line);
  });
  ui.source.addEventListener("keydown", (ev) => {
    const line = lineOf(ev.target);
    if (line !== null && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault();
      chooseLine(app, line);
    }
  });
  // A node of the graph is a link to its line in an editor: in the page, a click shows the line here.
  ui.graph.addEventListener("click", (ev) => {
    const node = (ev.target as Element | null)?.closest?.("[data-node]")?.getAttribute("data-node");
    if (!node) return;
    ev.preventDefault();
    chooseNode(app, node);
    if (!ui.sourceTab.hidden) showTab(app, "source");
  });
}
