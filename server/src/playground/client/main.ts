/**
 * The playground's page script (bundled into playground/app.js): threads, a chat whose replies
 * stream in, the graph with the node being run lit, and each turn's variables and memory, with fork.
 */
import { api } from "./api.js";
import { type App, createApp } from "./app.js";
import { follow, renderThread, run, updateComposer } from "./chat.js";
import { byId, newId } from "./dom.js";
import { clearMarks, drawGraph, light, showPath, zoom } from "./graph-view.js";
import { loadThreads, openThread, selectThread } from "./threads.js";
import { renderTimeline } from "./timeline.js";
import type { AgentInfo } from "./types.js";

/** Runs an action, showing what it throws in the status line instead of losing it. */
const guard =
  <A extends unknown[]>(app: App, fn: (...args: A) => Promise<void>) =>
  (...args: A): Promise<void> =>
    fn(...args).catch((e: Error) => app.status(e.message, true));

const app = createApp((app) => ({
  loadThreads: () => loadThreads(app),
  selectThread: guard(app, (id: string) => selectThread(app, id)),
  renderThread: (thread, turns) => renderThread(app, thread, turns),
  renderTimeline: () => renderTimeline(app),
  updateComposer: () => updateComposer(app),
  follow: (res, view) => follow(app, res, view),
  showPath: (trace) => showPath(app, trace),
  light: (node) => light(app, node),
  clearMarks: () => clearMarks(app),
}));
const { ui, state } = app;

ui.composer.addEventListener(
  "submit",
  guard(app, async (ev: SubmitEvent) => {
    ev.preventDefault();
    const text = ui.input.value;
    if (!text.trim() || state.running || !state.threadId) return;
    ui.input.value = "";
    await run(app, text);
  }),
);
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
    renderThread(app, null, []);
    ui.messages.replaceChildren();
    await run(app, null);
  }),
);
byId("zoom-in").addEventListener("click", () => zoom(app, 1.25));
byId("zoom-out").addEventListener("click", () => zoom(app, 0.8));

void guard(app, async () => {
  const agent = await api<AgentInfo>("GET", "api/agent");
  state.agent = agent;
  ui.agent.textContent = agent.name;
  document.title = `${agent.name} \u00b7 autograms playground`;
  await drawGraph(app);
  await loadThreads(app);
  const m = /^#thread=(.+)$/.exec(location.hash);
  if (m?.[1]) await app.actions.selectThread(decodeURIComponent(m[1]));
  else renderThread(app, null, []);
  document.body.setAttribute("data-ready", "true");
})();
