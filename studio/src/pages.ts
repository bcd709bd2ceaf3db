/**
 * Where the studio can go, as the header's buttons and the command palette (Ctrl+K) offer it:
 * its pages beside the playground (the body's `data-page`: runs, metrics, experiments, tools), each with
 * what opening it does, and the playground's own panels (the body's `data-panel`: one shown alone
 * under 1000 px). A new page or panel is offered by adding a line here.
 */
import type { App } from "./app.js";
import { openExperiments } from "./experiments.js";
import { loadMetrics } from "./metrics-view.js";
import { markPage } from "./page-mark.js";
import { loadRuns } from "./runs-view.js";
import { loadTools } from "./tools-view.js";

export interface StudioPage {
  label: string;
  open: (app: App) => Promise<void>;
}

export const PAGES: Readonly<Record<string, StudioPage>> = {
  studio: { label: "Studio", open: async () => {} },
  runs: { label: "Runs", open: (app) => loadRuns(app) },
  metrics: { label: "Metrics", open: () => loadMetrics() },
  experiments: { label: "Experiments", open: (app) => openExperiments(app) },
  tools: { label: "Tools", open: (app) => loadTools(app) },
};

/** The playground's panels: the id of each one's element, which `data-panel` names. */
export const PANELS: readonly { id: string; label: string }[] = [
  { id: "threads", label: "Threads" },
  { id: "chat", label: "Chat" },
  { id: "code", label: "Code" },
  { id: "timeline", label: "Turns" },
];

export function showPage(app: App, name: string): void {
  const page = PAGES[name];
  if (!page) return;
  markPage(name);
  void page.open(app).catch((e: Error) => app.status(e.message, true));
}

/** Shows a panel of the playground (alone, under 1000 px, as the bar under the header does) and puts the focus in it. */
export function showPanel(app: App, id: string): void {
  showPage(app, "studio");
  document.body.setAttribute("data-panel", id);
  const at = document.getElementById(id);
  at?.scrollIntoView({ block: "nearest" });
  at?.querySelector<HTMLElement>("textarea, input, button, select, [tabindex]")?.focus();
}

export function wirePages(app: App): void {
  for (const b of document.querySelectorAll<HTMLButtonElement>("#pages [data-page]"))
    b.addEventListener("click", () => showPage(app, b.dataset.page ?? "studio"));
}
