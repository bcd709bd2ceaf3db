/**
 * The runs page: every run of every thread, newest first (GET /api/runs), filtered by status,
 * agent, time and error text, a page at a time; a run chosen shows its span tree and timeline.
 */
import { api } from "./api.js";
import type { App } from "./app.js";
import { byId, el, empty, enc, fillList, markItem } from "./dom.js";
import { type RunSpans, spanTreeView } from "./span-tree.js";
import { usageText, type Usage } from "./usage.js";

interface ListedRun {
  id: string;
  threadId: string;
  agent: string | null;
  user: string | null;
  turn: number;
  status: string;
  startedAt: number;
  ms: number | null;
  error: { code: string; message: string } | null;
  usage?: Usage;
}

const SINCE: Record<string, number> = { hour: 3_600_000, day: 86_400_000, week: 604_800_000 };

let next: string | null = null;

/** The query the filters make (`after`: the page to go on from). */
function query(after: string | null): string {
  const q = new URLSearchParams({ limit: "50" });
  const status = byId<HTMLSelectElement>("runs-status").value;
  const agent = byId<HTMLInputElement>("runs-agent").value.trim();
  const since = SINCE[byId<HTMLSelectElement>("runs-since").value];
  const error = byId<HTMLInputElement>("runs-error").value.trim();
  if (status) q.set("status", status);
  if (agent) q.set("agent", agent);
  if (since) q.set("since", String(Date.now() - since));
  if (error) q.set("error", error);
  if (after) q.set("after", after);
  return q.toString();
}

export async function loadRuns(app: App, more = false): Promise<void> {
  const list = byId("run-list");
  const page = await api<{ runs: ListedRun[]; next: string | null }>("GET", `api/runs?${query(more ? next : null)}`);
  next = page.next;
  const items = page.runs.map((r) => runItem(app, r));
  if (more) list.append(...items);
  else fillList(list, items, "No run matches.");
  byId("runs-more").hidden = next === null;
}

function runItem(app: App, r: ListedRun): HTMLElement {
  const when = new Date(r.startedAt).toLocaleString();
  return el("li", { "data-run": r.id, class: `run status-${r.status}` }, [
    el("button", { type: "button", onclick: () => app.report(openRun(app, r.id)) }, [
      el("span", { class: `state ${r.status}`, text: r.status }),
      el("span", { class: "said", text: r.user ?? "(opening)" }),
      el("span", {
        class: "meta",
        text: `${r.threadId} · turn ${r.turn} · ${when}${r.ms === null ? "" : ` · ${r.ms} ms`}`,
      }),
      r.error ? el("span", { class: "run-error", text: r.error.message }) : null,
      r.usage ? el("span", { class: "usage", text: usageText(r.usage) }) : null,
    ]),
  ]);
}

export async function openRun(app: App, id: string): Promise<void> {
  markItem(byId("run-list"), "run", id, "selected");
  const detail = byId("run-detail");
  detail.replaceChildren(empty("Reading the run…"));
  const data = await api<RunSpans>("GET", `api/runs/${enc(id)}/spans`);
  detail.replaceChildren(
    el("div", { class: "bar" }, [
      el("h3", { text: `Run of ${data.run.threadId}, turn ${data.run.turn}` }),
      el("button", {
        type: "button",
        text: "Open the thread",
        onclick: () => {
          app.actions.showPage("studio");
          void app.actions.selectThread(data.run.threadId);
        },
      }),
    ]),
    spanTreeView(app, data),
  );
}

export function wireRuns(app: App): void {
  byId("runs-filters").addEventListener("submit", (ev) => {
    ev.preventDefault();
    app.report(loadRuns(app));
  });
  byId("runs-more").addEventListener("click", () => app.report(loadRuns(app, true)));
}
