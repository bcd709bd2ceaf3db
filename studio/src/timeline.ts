/** The turn timeline: the memory as it was after a turn, the variables each turn changed, fork. */
import { api } from "./api.js";
import type { App } from "./app.js";
import { callsView } from "./calls-view.js";
import { whatIf } from "./what-if.js";
import { el, empty, enc, short, tableOf } from "./dom.js";
import { nodeLabel } from "./node-label.js";
import { usageText } from "./usage.js";
import { turnSettingsText } from "./settings.js";
import type { Change, Graph, Memory, ThreadInfo } from "./types.js";

export function renderTimeline(app: App): void {
  const { state, ui } = app;
  const used = usageText(state.thread?.usage);
  ui.threadUsage.textContent = used ? `thread: ${used}` : "";
  ui.turns.replaceChildren(
    ...state.turns.map((t) => {
      const changed = (t.changes ?? []).length;
      const classes = `${t.seq === state.selectedTurn ? "selected " : ""}${t.status === "interrupted" ? "interrupted" : ""}`;
      return el("li", { "data-turn": String(t.seq), class: classes }, [
        el("button", { onclick: () => app.report(selectTurn(app, t.seq)) }, [
          el("span", { class: "seq", text: String(t.seq) }),
          el("span", { class: "said", text: t.user === null ? "(opening)" : t.user }),
          el("span", { class: "meta", text: changed ? `${changed} variable${changed === 1 ? "" : "s"}` : "" }),
          t.usage ? el("span", { class: "usage", text: usageText(t.usage) }) : null,
          t.settings ? el("span", { class: "usage turn-settings", text: turnSettingsText(t.settings) }) : null,
        ]),
      ]);
    }),
  );
}

function changesTable(graph: Graph | undefined, changes: Change[] | undefined): HTMLElement {
  if (!changes?.length) return empty("This turn changed no variable.");
  const rows = changes.map((c) => {
    const added = !("before" in c);
    const removed = !("after" in c);
    return el("tr", { class: added ? "added" : removed ? "removed" : "changed" }, [
      el("td", null, [el("code", { text: c.name })]),
      el("td", { class: "before", text: added ? "(new)" : short(c.before, 120) }),
      el("td", { class: "after", text: removed ? "(gone)" : short(c.after, 120) }),
      el("td", { class: "node" }, [el("code", { text: nodeLabel(graph, c.node ?? "") })]),
    ]);
  });
  return tableOf("changes", ["variable", "before", "after", "at node"], rows);
}

/** `edit`: what a variable's edit button does (a what-if from this turn). */
function memoryView(
  graph: Graph | undefined,
  memory: Memory | null,
  edit: (frame: number, name: string, value: unknown) => void,
): HTMLElement {
  if (!memory) return empty("No memory yet.");
  const frames = memory.stack.map((f, i) => {
    const names = Object.keys(f.vars).filter((n) => !n.startsWith("_"));
    const title =
      (i === 0 ? "main (globals)" : `${f.scope} ${f.function}`) +
      (f.node ? ` \u00b7 at ${nodeLabel(graph, f.node)}` : "");
    const vars = names.flatMap((n) => [
      el("dt", null, [el("code", { text: n })]),
      el("dd", null, [
        el("span", { class: "value", text: short(f.vars[n], 300) }),
        el("button", {
          class: "edit-var",
          "data-frame": String(i),
          "data-var": n,
          title: `What if ${n} had another value here? (on a fork; the next message is sent again)`,
          "aria-label": `edit ${n}`,
          text: "\u270e",
          onclick: () => edit(i, n, f.vars[n]),
        }),
      ]),
    ]);
    return el("div", { class: "frame" }, [
      el("h4", { text: title }),
      names.length ? el("dl", null, vars) : empty("no variables"),
    ]);
  });
  const whole = el("details", null, [
    el("summary", { text: "The whole memory (JSON)" }),
    el("pre", { text: JSON.stringify(memory, null, 2) }),
  ]);
  return el("div", { class: "memory" }, [...frames, whole]);
}

export async function selectTurn(app: App, seq: number): Promise<void> {
  const { state, ui } = app;
  const graph = state.agent?.graph;
  state.selectedTurn = seq;
  renderTimeline(app);
  const turn = state.turns.find((t) => t.seq === seq);
  app.actions.showPath(turn?.trace);
  const data = await api<{ memory: Memory | null }>(
    "GET",
    `api/threads/${enc(state.threadId ?? "")}/memory?turn=${seq}`,
  );
  const forkButton = el("button", {
    id: "fork",
    title: `A new thread holding turns 1 to ${seq} of this one`,
    text: `Fork from turn ${seq}`,
    onclick: () => app.report(fork(app, seq)),
  });
  const calls = el("div", { class: "calls-box" }, [empty("Replaying the turn\u2026")]);
  ui.detail.replaceChildren(
    el("div", { class: "bar" }, [el("h3", { text: `After turn ${seq}` }), forkButton]),
    el("h4", { text: "Prompts and calls" }),
    calls,
    el("h4", { text: "Variables this turn changed" }),
    changesTable(graph, turn?.changes),
    el("h4", { text: "Memory after this turn" }),
    memoryView(graph, data.memory, (frame, name, value) =>
      app.report(
        whatIf(app, seq, frame, name, value).then((view) => {
          if (view && state.selectedTurn === seq) ui.detail.insertBefore(view, ui.detail.children[1] ?? null);
        }),
      ),
    ),
  );
  // Rebuilt by replaying the turn: shown when it comes, unless another turn was chosen meanwhile.
  const view = await callsView(state.threadId ?? "", seq, graph).catch((e: Error) =>
    empty(`The calls could not be rebuilt: ${e.message}`),
  );
  if (state.selectedTurn === seq) calls.replaceChildren(view);
}

async function fork(app: App, seq: number): Promise<void> {
  const data = await api<{ thread: ThreadInfo }>("POST", `api/threads/${enc(app.state.threadId ?? "")}/fork`, {
    turn: seq,
  });
  await app.actions.loadThreads();
  await app.actions.selectThread(data.thread.id);
  app.status(`forked at turn ${seq} into ${data.thread.id}`);
}
