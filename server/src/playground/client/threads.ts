/** The thread list: open, delete; the open thread is in the URL, so a reload keeps it. */
import { api, ApiError } from "./api.js";
import type { App } from "./app.js";
import { el, enc } from "./dom.js";
import type { ThreadInfo, ThreadView } from "./types.js";

function describe(t: ThreadInfo): string {
  return (
    `${t.version} turn${t.version === 1 ? "" : "s"}${t.done ? " \u00b7 ended" : ""}` +
    (t.forkedFrom ? ` \u00b7 fork of ${t.forkedFrom.id.slice(0, 8)} at turn ${t.forkedFrom.turn}` : "")
  );
}

export async function loadThreads(app: App): Promise<void> {
  const data = await api<{ threads: ThreadInfo[] }>("GET", "api/threads");
  const threads = data.threads.slice().sort((a, b) => b.updatedAt - a.updatedAt);
  app.ui.threads.replaceChildren(
    ...threads.map((t) =>
      el("li", { "data-thread": t.id, class: t.id === app.state.threadId ? "active" : "" }, [
        el("button", { class: "open", title: t.id, onclick: () => void app.actions.selectThread(t.id) }, [
          el("span", { class: "id", text: t.id }),
          el("span", { class: "meta", text: describe(t) }),
        ]),
        el("button", {
          class: "delete",
          title: "Delete this thread",
          "aria-label": `delete ${t.id}`,
          text: "\u00d7",
          onclick: () => void removeThread(app, t.id).catch((e: Error) => app.status(e.message, true)),
        }),
      ]),
    ),
  );
}

function markActive(app: App): void {
  for (const li of app.ui.threads.querySelectorAll("li")) li.classList.toggle("active", li.getAttribute("data-thread") === app.state.threadId);
}

/** Opens a thread in the URL and the list, with nothing shown yet (a new thread). */
export function openThread(app: App, id: string | null): void {
  app.state.threadId = id;
  history.replaceState(null, "", id === null ? "#" : `#thread=${enc(id)}`);
  markActive(app);
}

export async function selectThread(app: App, id: string): Promise<void> {
  if (app.state.running) return;
  openThread(app, id);
  let data: ThreadView;
  try {
    data = await api<ThreadView>("GET", `api/threads/${enc(id)}`);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      openThread(app, null);
      app.actions.renderThread(null, []);
      app.status(`thread ${id} does not exist (any more)`, true);
      return;
    }
    throw e;
  }
  app.actions.renderThread(data.thread, data.turns);
  const last = data.turns[data.turns.length - 1];
  if (last) app.actions.showPath(last.trace);
  else app.actions.clearMarks();
  if (data.thread.running) await app.actions.follow(null, { reply: null, resume: true });
}

async function removeThread(app: App, id: string): Promise<void> {
  if (!confirm(`Delete thread ${id} and its whole history?`)) return;
  await api("DELETE", `api/threads/${enc(id)}`);
  if (app.state.threadId === id) {
    openThread(app, null);
    app.actions.renderThread(null, []);
  }
  await loadThreads(app);
}
