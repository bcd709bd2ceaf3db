/**
 * The thread list: a title (the first user message, or one given here), when, how many turns, and
 * whether it is running, waiting, ended or stale (an edit of the agent changed where it stands);
 * search; open, rename, delete; move a stale one to a node of the new build. The open thread is in the
 * URL, so a reload keeps it.
 */
import { api, threadView } from "./api.js";
import type { App } from "./app.js";
import { el, enc, markItem } from "./dom.js";
import type { ThreadInfo } from "./types.js";

let listed: ThreadInfo[] = [];

function when(ms: number): string {
  const d = new Date(ms);
  const today = new Date().toDateString() === d.toDateString();
  return today
    ? d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : d.toLocaleDateString([], { month: "short", day: "numeric" });
}

function stateOf(t: ThreadInfo): "running" | "ended" | "stale" | "waiting" {
  return t.running ? "running" : t.done ? "ended" : t.stale ? "stale" : "waiting";
}

function describe(t: ThreadInfo): string {
  const fork = t.forkedFrom ? ` \u00b7 fork of ${t.forkedFrom.id.slice(0, 8)} at turn ${t.forkedFrom.turn}` : "";
  return `${when(t.updatedAt)} \u00b7 ${t.version} turn${t.version === 1 ? "" : "s"}${fork}`;
}

function matches(t: ThreadInfo, query: string): boolean {
  const q = query.trim().toLowerCase();
  return q === "" || (t.title ?? "").toLowerCase().includes(q) || t.id.toLowerCase().includes(q);
}

function item(app: App, t: ThreadInfo): HTMLElement {
  const state = stateOf(t);
  // A button acting on the thread: its sign, its title, and a name that says which thread.
  const act = (cls: string, verb: string, title: string, text: string, work: () => Promise<void>) =>
    el("button", { class: cls, title, "aria-label": `${verb} ${t.id}`, text, onclick: () => app.report(work()) });
  return el("li", { "data-thread": t.id, "data-state": state, class: t.id === app.state.threadId ? "active" : "" }, [
    el("button", { class: "open", title: t.id, onclick: () => void app.actions.selectThread(t.id) }, [
      el("span", { class: "title", text: t.title ?? "(no message yet)" }, [
        el("span", { class: `state ${state}`, text: state, ...(t.stale && { title: t.stale }) }),
      ]),
      el("span", { class: "meta", text: describe(t) }),
      el("span", { class: "id", text: t.id }),
    ]),
    t.stale
      ? act("migrate", "move", "Move this conversation to a node of the agent as it is now", "\u21e2", () =>
          migrate(app, t),
        )
      : null,
    act("rename", "rename", "Rename this thread", "\u270e", () => rename(app, t)),
    act("delete", "delete", "Delete this thread", "\u00d7", () => removeThread(app, t.id)),
  ]);
}

/** The threads listed, the most recently active first. */
export const listedThreads = (): readonly ThreadInfo[] => listed;

export function renderThreads(app: App): void {
  app.ui.threads.replaceChildren(...listed.filter((t) => matches(t, app.ui.search.value)).map((t) => item(app, t)));
}

export async function loadThreads(app: App): Promise<void> {
  const data = await api<{ threads: ThreadInfo[] }>("GET", "api/threads?stale=1");
  listed = data.threads.slice().sort((a, b) => b.updatedAt - a.updatedAt);
  renderThreads(app);
}

/**
 * A stale thread goes on from a node of the new build that the user names (its variables and
 * turns kept; the server checks that the node can take it: POST /api/threads/:id/migrate).
 */
async function migrate(app: App, t: ThreadInfo): Promise<void> {
  const node = prompt(
    `This conversation cannot resume where it stands (${t.stale}).\nThe name of the node to go on from (one the conversation can wait at):`,
  );
  if (node === null || node.trim() === "") return;
  await api("POST", `api/threads/${enc(t.id)}/migrate`, { node: node.trim() });
  await loadThreads(app);
  await selectThread(app, t.id);
  app.status(`thread ${t.id} goes on from ${node.trim()}`);
}

async function rename(app: App, t: ThreadInfo): Promise<void> {
  const title = prompt("A title for this thread (empty: its first message):", t.title ?? "");
  if (title === null) return;
  await api("PATCH", `api/threads/${enc(t.id)}`, { title: title.trim() === "" ? null : title });
  await loadThreads(app);
}

/** Opens a thread in the URL and the list, with nothing shown yet (a new thread). */
export function openThread(app: App, id: string | null): void {
  app.state.threadId = id;
  history.replaceState(null, "", id === null ? "#" : `#thread=${enc(id)}`);
  markItem(app.ui.threads, "thread", app.state.threadId, "active");
}

/** No thread open, nothing of one shown. */
function closeThread(app: App): void {
  openThread(app, null);
  app.actions.renderThread(null, []);
}

export async function selectThread(app: App, id: string): Promise<void> {
  if (app.state.running) return;
  openThread(app, id);
  const data = await threadView(id);
  if (!data) {
    closeThread(app);
    return app.status(`thread ${id} does not exist (any more)`, true);
  }
  app.actions.renderThread(data.thread, data.turns);
  if (data.thread.stale)
    app.status(
      `This conversation cannot resume on the agent as it is now (${data.thread.stale}): its next message is refused (unless the server restarts stale threads, --on-stale restart); \u21e2 in the list moves it to a node of the new build.`,
      true,
    );
  const last = data.turns[data.turns.length - 1];
  if (last) app.actions.showPath(last.trace);
  else app.actions.clearMarks();
  if (data.thread.running) await app.actions.follow(null, { reply: null, resume: true });
}

async function removeThread(app: App, id: string): Promise<void> {
  if (!confirm(`Delete thread ${id} and its whole history?`)) return;
  await api("DELETE", `api/threads/${enc(id)}`);
  if (app.state.threadId === id) closeThread(app);
  await loadThreads(app);
}
