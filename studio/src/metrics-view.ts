/**
 * The metrics page (GET /api/metrics): runs, tokens, cost, turn latency (p50, p95) and errors over
 * the last hour, day or week, as figures, a bar per time bucket, and a row per agent.
 */
import { api } from "./api.js";
import { byId, el, empty, tableOf } from "./dom.js";
import { money } from "./usage.js";
import type { App } from "./app.js";
import type { Figures, MetricsReport as Report } from "../../server/src/usage/metrics-report.js";

const latency = (n: number | null) => (n === null ? "–" : n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n} ms`);

function cards(f: Figures): HTMLElement {
  const card = (name: string, value: string) =>
    el("div", { class: "card", "data-figure": name }, [
      el("span", { class: "figure", text: value }),
      el("span", { class: "label", text: name }),
    ]);
  return el("div", { class: "cards" }, [
    card("runs", String(f.runs)),
    card("errors", String(f.errors)),
    card("tokens in", f.inputTokens.toLocaleString("en-US")),
    card("tokens out", f.outputTokens.toLocaleString("en-US")),
    card("cost", f.cost === undefined ? "–" : money(f.cost)),
    card("p50 latency", latency(f.p50)),
    card("p95 latency", latency(f.p95)),
  ]);
}

function chart(report: Report): HTMLElement {
  const most = Math.max(1, ...report.buckets.map((b) => b.runs));
  const label = (start: number) =>
    report.bucketMs >= 86_400_000
      ? new Date(start).toLocaleDateString()
      : new Date(start).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const bars = report.buckets.map((b) => {
    const ok = el("span", { class: "ok" });
    ok.style.height = `${((b.runs - b.errors) / most) * 100}%`;
    const bad = el("span", { class: "bad" });
    bad.style.height = `${(b.errors / most) * 100}%`;
    return el("li", { title: `${label(b.start)}: ${b.runs} runs, ${b.errors} errors, p95 ${latency(b.p95)}` }, [
      el("span", { class: "stack" }, [bad, ok]),
      el("span", { class: "tick", text: label(b.start) }),
    ]);
  });
  return el("ol", { class: "chart", "aria-label": "runs per time bucket (errors in red)" }, bars);
}

function agentsTable(report: Report): HTMLElement {
  const head = ["agent", "runs", "errors", "tokens in", "tokens out", "p50", "p95"];
  const rows = report.agents.map((a) => {
    const cells = [
      a.agent ?? "(none yet)",
      a.runs,
      a.errors,
      a.inputTokens,
      a.outputTokens,
      latency(a.p50),
      latency(a.p95),
    ];
    return el("tr", null, [...cells.map((v) => el("td", { text: String(v) }))]);
  });
  return tableOf("changes agents", head, rows);
}

export async function loadMetrics(): Promise<void> {
  const range = byId<HTMLSelectElement>("metrics-range").value;
  const agent = byId<HTMLInputElement>("metrics-all").checked ? "&agent=*" : "";
  const report = await api<Report>("GET", `api/metrics?range=${range}${agent}`);
  byId("metrics-body").replaceChildren(
    cards(report.total),
    el("h4", { text: "Runs over time" }),
    chart(report),
    el("h4", { text: "Per agent" }),
    agentsTable(report),
    ...(report.cut ? [empty(`Made from the ${report.rows} most recent runs only.`)] : []),
  );
}

export function wireMetrics(app: App): void {
  const reload = () => app.report(loadMetrics());
  byId("metrics-range").addEventListener("change", reload);
  byId("metrics-all").addEventListener("change", reload);
}
