/**
 * The experiments page: the served agent's stored `autograms eval` runs, and one's cases, each
 * turn with the nodes its path went through at their lines. A case's conversation is not a
 * thread (nothing of it was stored but its report), so a turn is shown here, read-only, and "at
 * the source" shows it in the code pane as a thread's turn is shown: its path marked, the node
 * that replied lit, when the experiment ran on the source served (its lines are then this
 * source's). For an experiment run beside another (`--compare`), each turn that went another way
 * shows the two paths side by side, the nodes where they part marked. The address keeps what is
 * shown (`#experiment=ID`, `&case=N&turn=T` for a turn at the source), so a link opens it again.
 */
import { api } from "./api.js";
import type { App } from "./app.js";
import { byId, el, enc, fillList, markItem } from "./dom.js";
import { markPage } from "./page-mark.js";

/** What the page reads of GET /api/experiments/:id (routes/experiments.ts), as types.ts holds the rest of the API's JSON. */
interface ExperimentInfo {
  id: string;
  createdAt: number;
  build: string;
  sourceHash: string | null;
  model: string;
  casesFile: string;
  cases: number;
  passed: number;
  failed: number;
}
interface NodeAt {
  node: string;
  at: string | null;
}
interface CaseTurn {
  turn: number;
  user: string | null;
  reply: string | null;
  replyNode: string | null;
  replyAt: string | null;
  path: NodeAt[];
  error?: string;
}
interface Outcome {
  turn: number | null;
  expectation: string;
  pass: boolean;
  reason: string;
}
interface CaseView {
  case: string;
  line: number;
  runs: number;
  passed: number;
  outcomes: Outcome[];
  turns: CaseTurn[];
}
interface Change {
  case: string;
  before: { passed: number; runs: number };
  after: { passed: number; runs: number };
  turns: { turn: number; lastShared: { node: string } | null }[];
}
interface ExperimentView {
  experiment: ExperimentInfo;
  sameSource: boolean;
  pass: boolean;
  cases: CaseView[];
  comparison: { with: ExperimentInfo; changes: Change[]; cases: CaseView[] } | null;
}

const when = (ms: number) => new Date(ms).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
const hash = (h: string | null) => (h === null ? "no source" : `source ${h.slice(0, 8)}`);
const result = (r: { passed: number; runs: number }) =>
  r.runs === 1 ? (r.passed ? "passes" : "fails") : `passes ${r.passed} of ${r.runs}`;

/** Shows the experiments page (or, `false`, the studio again). */
export function showExperimentsPage(shown: boolean): void {
  markPage(shown ? "experiments" : "studio");
}

/** Opens the page with the list of experiments, and the one the address names. */
export async function openExperiments(app: App, id?: string, at?: { case: number; turn: number }): Promise<void> {
  showExperimentsPage(true);
  const { experiments } = await api<{ experiments: ExperimentInfo[] }>("GET", "api/experiments");
  const items = experiments.map((e) =>
    el("li", { "data-experiment": e.id }, [
      el("button", { type: "button", onclick: () => app.report(showExperiment(app, e.id)) }, [
        el("span", { class: "id", text: e.id }),
        el("span", {
          class: e.failed ? "state failed" : "state passed",
          text: e.failed ? `${e.failed} failed` : "all pass",
        }),
        el("span", { class: "meta", text: `${e.build} \u00b7 ${e.model} \u00b7 ${when(e.createdAt)}` }),
      ]),
    ]),
  );
  fillList(byId("experiment-list"), items, "No experiments yet: autograms eval AGENT CASES keeps one.");
  const chosen = id ?? experiments[0]?.id;
  if (chosen) await showExperiment(app, chosen, at);
}

async function showExperiment(app: App, id: string, at?: { case: number; turn: number }): Promise<void> {
  const view = await api<ExperimentView>("GET", `api/experiments/${enc(id)}`);
  history.replaceState(null, "", `#experiment=${enc(id)}`);
  markItem(byId("experiment-list"), "experiment", id, "active");
  const e = view.experiment;
  const other = view.comparison;
  const cases = view.cases.map((c, i) => caseOf(app, view, c, i));
  const parts: (Node | null)[] = [
    el("h3", { text: `Experiment ${e.id}` }),
    el("p", {
      class: "meta",
      text: `${e.build} (${hash(e.sourceHash)}) on ${e.model} \u00b7 ${e.casesFile} \u00b7 ${e.cases} cases: ${e.passed} passed, ${e.failed} failed \u00b7 ${when(e.createdAt)}`,
    }),
    view.sameSource
      ? null
      : el("p", { class: "note", text: "It ran on another source than the one served: its lines are that build's." }),
    other ? changesOf(view, other) : null,
    el("h4", { text: "Cases" }),
    el("ol", { class: "cases" }, cases),
  ];
  byId("experiment-detail").replaceChildren(...parts.filter((p): p is Node => p !== null));
  if (at) {
    const c = view.cases[at.case];
    const t = c?.turns[at.turn - 1];
    if (c && t) showAtSource(app, view, at.case, t);
  }
}

/** The path's nodes, each at its line; those from `from` on marked as where it parts. */
function pathList(path: NodeAt[], from: number): HTMLElement {
  const nodes = path.map((p, i) =>
    el("li", { class: i >= from ? "parts" : "" }, [
      el("code", { text: p.node }),
      el("span", { class: "at", text: p.at ?? "" }),
    ]),
  );
  return el("ol", { class: "path" }, nodes);
}

/** What changed from the experiment this one ran beside: each case, and each turn's two paths side by side. */
function changesOf(view: ExperimentView, other: NonNullable<ExperimentView["comparison"]>): HTMLElement {
  const there = other.with;
  const items = other.changes.map((change) => {
    const mine = view.cases.find((c) => c.case === change.case);
    const theirs = other.cases.find((c) => c.case === change.case);
    const resultText =
      change.before.passed !== change.after.passed
        ? `${result(change.before)} there, ${result(change.after)} here`
        : `${result(change.after)} on both`;
    return el("li", { class: "change" }, [
      el("p", {}, [el("strong", { text: change.case }), el("span", { text: `: ${resultText}` })]),
      ...change.turns.map((d) => {
        const a = theirs?.turns[d.turn - 1]?.path ?? [];
        const b = mine?.turns[d.turn - 1]?.path ?? [];
        const shared = d.lastShared === null ? 0 : b.findIndex((p) => p.node === d.lastShared!.node) + 1;
        const sharedThere = d.lastShared === null ? 0 : a.findIndex((p) => p.node === d.lastShared!.node) + 1;
        return el("div", { class: "side-by-side", "aria-label": `turn ${d.turn}, the two paths` }, [
          el("div", {}, [el("h5", { text: `Turn ${d.turn} there: ${there.build}` }), pathList(a, sharedThere)]),
          el("div", {}, [el("h5", { text: `Turn ${d.turn} here: ${view.experiment.build}` }), pathList(b, shared)]),
        ]);
      }),
    ]);
  });
  return el("section", { class: "changes", "aria-label": "what changed" }, [
    el("h4", { text: `Compared with experiment ${there.id} (${there.build} on ${there.model})` }),
    items.length ? el("ol", {}, items) : el("p", { class: "empty", text: "Nothing changed." }),
  ]);
}

function caseOf(app: App, view: ExperimentView, c: CaseView, index: number): HTMLElement {
  const pass = c.passed === c.runs;
  const failures = (turn: number | null) =>
    c.outcomes
      .filter((o) => !o.pass && o.turn === turn)
      .map((o) => el("p", { class: "failure", text: `${o.expectation}: ${o.reason}` }));
  return el("li", { class: pass ? "case passed" : "case failed" }, [
    el("details", pass ? {} : { open: "" }, [
      el("summary", {
        text: `${pass ? "\u2713" : "\u2717"} ${c.case} (line ${c.line})${c.runs > 1 ? ` \u00b7 passes ${c.passed} of ${c.runs}` : ""}`,
      }),
      el("ol", { class: "case-turns" }, [
        ...c.turns.map((t) => {
          const failed = failures(t.turn);
          return el("li", { class: failed.length ? "failed" : "" }, [
            el("p", { class: "said" }, [
              el("strong", { text: `Turn ${t.turn}` }),
              el("span", { text: ` user: ${t.user ?? "(none)"}` }),
            ]),
            el("p", { class: "said" }, [el("span", { text: `agent: ${t.reply ?? t.error ?? "(no reply)"}` })]),
            el("p", { class: "meta", text: `replied at ${t.replyNode ?? "-"} (${t.replyAt ?? "?"})` }),
            ...failed,
            view.sameSource
              ? el("a", {
                  class: "at-source",
                  href: turnAddress(view, index, t),
                  onclick: (ev: Event) => {
                    ev.preventDefault();
                    showAtSource(app, view, index, t);
                  },
                  text: `Turn ${t.turn} at the source`,
                })
              : pathList(t.path, t.path.length),
          ]);
        }),
      ]),
      ...failures(null),
    ]),
  ]);
}

/** The address of a case's turn shown at the source (`experimentInAddress` reads it). */
const turnAddress = (view: ExperimentView, index: number, t: CaseTurn) =>
  `#experiment=${enc(view.experiment.id)}&case=${index}&turn=${t.turn}`;

/** The turn in the code pane, as a thread's turn is shown: its path marked, the node that replied lit. */
function showAtSource(app: App, view: ExperimentView, index: number, t: CaseTurn): void {
  history.replaceState(null, "", turnAddress(view, index, t));
  showExperimentsPage(false);
  document.body.setAttribute("data-panel", "code");
  app.actions.showSource();
  app.actions.showPath(t.path.map((p) => p.node));
  if (t.replyNode) app.actions.light(t.replyNode);
  app.status(`${view.cases[index]!.case}, turn ${t.turn}: replied at ${t.replyNode ?? "-"} (${t.replyAt ?? "?"})`);
}

/** What the address names: an experiment, and a turn of one of its cases shown at the source. */
export function experimentInAddress(): { id: string; at?: { case: number; turn: number } } | null {
  const m = /^#experiment=([^&]+)(?:&case=(\d+)&turn=(\d+))?$/.exec(location.hash);
  if (!m) return null;
  const id = decodeURIComponent(m[1]!);
  return m[2] === undefined ? { id } : { id, at: { case: Number(m[2]), turn: Number(m[3]) } };
}
