/**
 * The playground's page script (bundled into playground/app.js): threads, a chat whose replies
 * stream in, the graph with the node being run lit, and each turn's variables and memory, with fork.
 */
import { api } from "./api.js";
import { followBuilds, showBuild } from "./builds.js";
import { type App, createApp } from "./app.js";
import { follow, regenerate, renderThread, run, stop, updateComposer } from "./chat.js";
import { byId, keyMove, newId } from "./dom.js";
import { chooseNode, showTab, wireCodePane } from "./code-pane.js";
import { clearMarks, drawGraph, light, showPath, zoom } from "./graph-view.js";
import { clearLines, lightLine, loadSources, showPathLines } from "./source-view.js";
import { listedThreads, loadThreads, openThread, renderThreads, selectThread } from "./threads.js";
import { agentPage, loadAgents, servedAgents } from "./agents.js";
import { wirePalette, type Command } from "./palette.js";
import { PAGES, PANELS, showPage, showPanel, wirePages } from "./pages.js";
import { renderTimeline, selectTurn } from "./timeline.js";
import { wireTheme } from "./theme.js";
import { wireRuns } from "./runs-view.js";
import { wireMetrics } from "./metrics-view.js";
import { experimentInAddress, openExperiments, showExperimentsPage } from "./experiments.js";
import { showSettings, wireSettings } from "./settings.js";
import type { AgentInfo } from "./types.js";

/** Runs an action, showing what it throws in the status line instead of losing it. */
const guard =
  <A extends unknown[]>(app: App, fn: (...args: A) => Promise<void>) =>
  (...args: A): Promise<void> =>
    fn(...args).catch((e: Error) => app.status(e.message, true));

const app = createApp((app) => ({
  loadThreads: () => loadThreads(app),
  selectThread: guard(app, (id: string) => selectThread(app, id)),
  renderThread: (thread, turns) => {
    renderThread(app, thread, turns);
    showSettings(thread);
  },
  renderTimeline: () => renderTimeline(app),
  updateComposer: () => updateComposer(app),
  follow: (res, view) => follow(app, res, view),
  showPath: (trace) => {
    showPath(app, trace);
    showPathLines(app, trace);
  },
  light: (node) => {
    light(app, node);
    lightLine(app, node);
  },
  clearMarks: () => {
    clearMarks(app);
    clearLines(app);
  },
  showPage: (name) => showPage(app, name),
  showNode: (name) => {
    showPage(app, "studio");
    document.body.setAttribute("data-panel", "code");
    showTab(app, app.ui.sourceTab.hidden ? "graph" : "source");
    chooseNode(app, name);
  },
  showSource: () => showTab(app, "source"),
}));
const { ui, state } = app;

ui.composer.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const text = ui.input.value;
  if (!text.trim() || state.running || !state.threadId) return;
  ui.input.value = "";
  app.report(run(app, text));
});
ui.input.addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
    ev.preventDefault();
    ui.composer.requestSubmit();
  }
});
ui.newThread.addEventListener(
  "click",
  guard(app, async () => {
    if (state.running) return;
    openThread(app, `t-${newId()}`);
    app.actions.renderThread(null, []);
    ui.messages.replaceChildren();
    await run(app, null);
  }),
);
ui.stop.addEventListener("click", () => app.report(stop(app)));
ui.regenerate.addEventListener("click", () => app.report(regenerate(app)));
// Under 1000 px one panel shows at a time: the bar under the header switches them.
for (const b of document.querySelectorAll<HTMLButtonElement>("#panels [data-show]")) {
  b.addEventListener("click", () => document.body.setAttribute("data-panel", b.dataset.show ?? "chat"));
}
// The turns: arrow keys move between them (and show each one's memory), Home and End to the ends.
ui.turns.addEventListener("keydown", (ev) => {
  const seqs = state.turns.map((t) => t.seq);
  if (!seqs.length) return;
  const at = state.selectedTurn === null ? -1 : seqs.indexOf(state.selectedTurn);
  const to = keyMove(ev.key, at, seqs.length);
  if (to === undefined) return;
  ev.preventDefault();
  const seq = seqs[to];
  if (seq !== undefined) app.report(selectTurn(app, seq));
});
wireCodePane(app);
wireTheme(byId("theme"));
wirePages(app);
wireRuns(app);
wireMetrics(app);
byId("experiments-close").addEventListener("click", () => showExperimentsPage(false));
// Ctrl+K: the agents, this agent's threads and the pages, by keyboard.
const openPalette = wirePalette(
  { dialog: byId("palette"), input: byId("palette-input"), list: byId("palette-list"), empty: byId("palette-empty") },
  (): Command[] => [
    ...servedAgents()
      .filter((a) => a.name !== state.agent?.name)
      .map((a) => ({ kind: "Agent", label: a.name, run: () => location.assign(agentPage(a)) })),
    ...listedThreads().map((t) => ({
      kind: "Thread",
      label: t.title ?? "(no message yet)",
      detail: t.id,
      run: () => {
        showPanel(app, "chat");
        void app.actions.selectThread(t.id);
      },
    })),
    ...Object.entries(PAGES).map(([name, p]) => ({ kind: "Page", label: p.label, run: () => showPage(app, name) })),
    ...PANELS.map((p) => ({ kind: "Panel", label: p.label, run: () => showPanel(app, p.id) })),
  ],
);
byId("palette-open").addEventListener("click", openPalette);
ui.search.addEventListener("input", () => renderThreads(app));
byId("zoom-in").addEventListener("click", () => zoom(app, 1.25));
byId("zoom-out").addEventListener("click", () => zoom(app, 0.8));

void guard(app, async () => {
  const agent = await api<AgentInfo>("GET", "api/agent");
  state.agent = agent;
  ui.agent.textContent = agent.name;
  document.title = `${agent.name} \u00b7 autograms playground`;
  await loadAgents(byId("agents"), agent.name);
  await drawGraph(app);
  await loadSources(app);
  await wireSettings(app);
  showTab(app, ui.sourceTab.hidden ? "graph" : "source");
  await loadThreads(app);
  const m = /^#thread=(.+)$/.exec(location.hash);
  if (m?.[1]) await app.actions.selectThread(decodeURIComponent(m[1]));
  else app.actions.renderThread(null, []);
  const experiment = experimentInAddress();
  if (experiment) await openExperiments(app, experiment.id, experiment.at);
  showBuild(app, agent.build);
  followBuilds(app);
  document.body.setAttribute("data-ready", "true");
})();
