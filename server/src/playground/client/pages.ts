/**
 * The studio's pages beside the playground (the header's page buttons): each named here with
 * what opening it does, one line each. The page shown is the body's `data-page`.
 */
import type { App } from "./app.js";
import { openExperiments } from "./experiments.js";
import { loadMetrics } from "./metrics-view.js";
import { markPage } from "./page-mark.js";
import { loadRuns } from "./runs-view.js";

const PAGES: Record<string, (app: App) => Promise<void>> = {
  studio: async () => {},
  runs: (app) => loadRuns(app),
  metrics: () => loadMetrics(),
  experiments: (app) => openExperiments(app),
};

export function showPage(app: App, name: string): void {
  const open = PAGES[name];
  if (!open) return;
  markPage(name);
  void open(app).catch((e: Error) => app.status(e.message, true));
}

export function wirePages(app: App): void {
  for (const b of document.querySelectorAll<HTMLButtonElement>("#pages [data-page]"))
    b.addEventListener("click", () => showPage(app, b.dataset.page ?? "studio"));
}
