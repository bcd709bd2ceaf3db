/**
 * `serve --watch`: the page follows the builds of the agent. A new good build redraws the graph and
 * the sources; a save that does not build shows its diagnostics while the last good build serves.
 */
import { api } from "./api.js";
import type { App } from "./app.js";
import { drawGraph } from "./graph-view.js";
import { loadSources } from "./source-view.js";
import type { AgentInfo } from "./types.js";

const EVERY_MS = 1500;

/** A failed build in the status line (one line: its summary; the diagnostics on hover). */
export function showBuild(app: App, build: AgentInfo["build"]): void {
  if (build.ok) return;
  app.status(
    `The latest save does not build (${build.message ?? "see the server's log"}); the last good build is served.`,
    true,
  );
  app.ui.status.title = build.diagnostics ?? "";
}

export function followBuilds(app: App): void {
  let seen = app.state.agent?.build.at;
  if (!app.state.agent?.build.watching) return;
  const check = async () => {
    const agent = await api<AgentInfo>("GET", "api/agent");
    if (agent.build.at === seen) return;
    seen = agent.build.at;
    if (!agent.build.ok) return showBuild(app, agent.build);
    app.state.agent = agent;
    await drawGraph(app);
    await loadSources(app);
    // The threads an edit left unable to resume are marked stale.
    await app.actions.loadThreads();
    app.status("A new build of the agent is served: the next turn runs on it.");
    app.ui.status.title = "";
  };
  setInterval(() => void check().catch(() => {}), EVERY_MS);
}
