/**
 * The agent's own source beside the chat: the line of the node being run lit as a reply streams,
 * the lines a turn went through marked, a click on a line showing its nodes (and on a node of the
 * graph, its line). The graph's nodes name their lines in the agent file (`loc`); tool and action
 * modules are shown as they are.
 */
import { api } from "./api.js";
import type { App } from "./app.js";
import { el } from "./dom.js";
import type { GraphNode } from "./types.js";

export interface SourceFile {
  path: string;
  text: string;
  role: "agent" | "module";
}

interface SourceState {
  files: SourceFile[];
  shown: number;
  /** The agent file's line of each node, and the nodes of each line. */
  lineOf: Map<string, number>;
  nodesAt: Map<number, GraphNode[]>;
}

const view: SourceState = { files: [], shown: -1, lineOf: new Map(), nodesAt: new Map() };

function box(app: App): HTMLElement {
  return app.ui.source;
}

function lineEl(app: App, line: number): HTMLElement | null {
  return box(app).querySelector<HTMLElement>(`.src-line[data-line="${line}"]`);
}

/** True when the agent file is the one shown (only its lines belong to nodes). */
function agentShown(): boolean {
  return view.files[view.shown]?.role === "agent";
}

const agentFile = () => view.files.findIndex((f) => f.role === "agent");

export async function loadSources(app: App): Promise<void> {
  const data = await api<{ files: SourceFile[] }>("GET", "playground/sources");
  view.files = data.files;
  for (const n of app.state.agent?.graph.nodes ?? []) {
    if (!n.loc) continue;
    view.lineOf.set(n.name, n.loc.line);
    view.nodesAt.set(n.loc.line, [...(view.nodesAt.get(n.loc.line) ?? []), n]);
  }
  app.ui.sourceTab.hidden = view.files.length === 0;
  if (view.files.length === 0) return;
  app.ui.fileSelect.replaceChildren(...view.files.map((f, i) => el("option", { value: String(i), text: f.path })));
  app.ui.fileSelect.hidden = view.files.length < 2;
  showFile(app, Math.max(0, agentFile()));
}

export function showFile(app: App, index: number): void {
  const file = view.files[index];
  if (!file) return;
  view.shown = index;
  app.ui.fileSelect.value = String(index);
  const agent = file.role === "agent";
  const lines = file.text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const items = lines.map((text, i) => {
    const line = i + 1;
    const nodes = agent ? view.nodesAt.get(line) : undefined;
    const props = nodes
      ? {
          class: "src-line has-node",
          "data-line": String(line),
          tabindex: "0",
          title: nodes.map((n) => n.name).join(", "),
        }
      : { class: "src-line", "data-line": String(line) };
    return el("li", props, [el("span", { class: "ln", text: String(line) }), el("code", { text: text || " " })]);
  });
  box(app).replaceChildren(el("ol", { class: "src", "aria-label": file.path }, items));
}

/** The node at `name` lit in the source (the one before it marked as passed). */
export function lightLine(app: App, name: string): void {
  if (!agentShown()) return;
  for (const e of box(app).querySelectorAll(".src-line.lit")) {
    e.classList.remove("lit");
    e.classList.add("passed");
  }
  const line = view.lineOf.get(name);
  const found = line === undefined ? null : lineEl(app, line);
  if (!found) return;
  found.classList.remove("passed");
  found.classList.add("lit");
  if (!box(app).hidden) found.scrollIntoView?.({ block: "nearest" });
}

export function clearLines(app: App): void {
  for (const e of box(app).querySelectorAll(".src-line.lit, .src-line.passed, .src-line.selected"))
    e.classList.remove("lit", "passed", "selected");
}

export function showPathLines(app: App, trace: string[] | undefined): void {
  clearLines(app);
  if (!agentShown()) return;
  for (const name of trace ?? []) {
    const line = view.lineOf.get(name);
    if (line !== undefined) lineEl(app, line)?.classList.add("passed");
  }
  const last = trace?.[trace.length - 1];
  if (last) lightLine(app, last);
}

/** The nodes a line of the agent holds, for the panel that shows them (empty: not a node's line). */
export function nodesAtLine(line: number): GraphNode[] {
  return view.nodesAt.get(line) ?? [];
}

/** Shows and selects a node's line (a click on the graph): the agent file, scrolled to it. */
export function selectNodeLine(app: App, name: string): number | null {
  const line = view.lineOf.get(name);
  if (line === undefined) return null;
  if (!agentShown()) showFile(app, agentFile());
  selectLine(app, line);
  return line;
}

export function selectLine(app: App, line: number): void {
  for (const e of box(app).querySelectorAll(".src-line.selected")) e.classList.remove("selected");
  const found = lineEl(app, line);
  found?.classList.add("selected");
  found?.scrollIntoView?.({ block: "center" });
}
