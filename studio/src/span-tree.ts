/**
 * A run's span tree and timeline in one (GET /api/runs/:id/spans): a row per span, indented by
 * depth, with its bar placed by start and length on the run's time; the span chosen (click, or
 * the arrow keys) shows its input, output and attributes, a node's line in the source, and a
 * model call's prompts (rebuilt by replaying the turn: GET .../turns/:seq/calls).
 */
import { api } from "./api.js";
import type { App } from "./app.js";
import { callText, el, empty, enc, keyMove } from "./dom.js";
import { usageText, type Usage } from "./usage.js";
import type { Span } from "../../server/src/traces/span-tree.js";

export type { Span };

export interface RunSpans {
  run: { id: string; threadId: string; status: string; turn: number; agent: string | null };
  spans: Span[];
  cut?: true;
}

const flat = (spans: Span[], depth = 0): { span: Span; depth: number }[] =>
  spans.flatMap((span) => [{ span, depth }, ...flat(span.children, depth + 1)]);

const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${Math.round(n * 10) / 10} ms`);

export function spanTreeView(app: App, data: RunSpans): HTMLElement {
  const rows = flat(data.spans);
  const end = Math.max(1, ...rows.map(({ span }) => span.start + span.ms));
  const detail = el("div", { class: "span-detail", "aria-live": "polite" }, [
    empty("Choose a span to see its input, output and attributes."),
  ]);
  const list = el("ol", { class: "span-rows", "aria-label": "spans: arrow keys move between them" });
  const choose = (i: number) => {
    const row = rows[i];
    if (!row) return;
    for (const b of list.querySelectorAll(".span-row.selected")) b.classList.remove("selected");
    const item = list.children[i] as HTMLElement | undefined;
    item?.classList.add("selected");
    item?.querySelector("button")?.focus();
    detail.replaceChildren(...spanDetail(app, data, row.span));
  };
  rows.forEach(({ span, depth }, i) => {
    const bar = el("span", { class: "bar-fill" });
    bar.style.left = `${(span.start / end) * 100}%`;
    bar.style.width = `${Math.max(0.4, (span.ms / end) * 100)}%`;
    const name = el(
      "button",
      {
        type: "button",
        class: "span-name",
        "data-span": span.id,
        title: `${span.kind}: ${span.name}`,
        onclick: () => choose(i),
      },
      [
        el("span", { class: `kind kind-${span.kind}`, text: span.kind }),
        el("span", { class: "label", text: span.name }),
      ],
    );
    name.style.paddingLeft = `${4 + depth * 14}px`;
    list.appendChild(
      el("li", { class: `span-row kind-${span.kind}`, "data-span": span.id }, [
        name,
        el("span", { class: "span-bar", title: `${ms(span.start)} + ${ms(span.ms)}` }, [bar]),
        el("span", { class: "span-ms", text: ms(span.ms) }),
      ]),
    );
  });
  list.addEventListener("keydown", (ev) => {
    const at = rows.findIndex(({ span }) => span.id === (ev.target as HTMLElement).dataset.span);
    const to = keyMove(ev.key, at, rows.length);
    if (to === undefined) return;
    ev.preventDefault();
    choose(to);
  });
  return el("div", { class: "run-spans" }, [
    el("p", {
      class: "usage",
      text: "Bars: each step placed after the waits (model, tools) before it; a turn's own computation is not timed step by step.",
    }),
    data.cut ? empty("The run had more events than are read: the first ones are shown.") : null,
    list,
    detail,
  ]);
}

function section(title: string, value: unknown): HTMLElement[] {
  if (value === undefined) return [];
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return [el("h5", { text: title }), callText(text)];
}

function spanDetail(app: App, data: RunSpans, span: Span): HTMLElement[] {
  const { usage, ...attributes } = span.attributes;
  const out: HTMLElement[] = [
    el("h4", { text: `${span.kind}: ${span.name}` }),
    el("p", { class: "usage", text: `starts at ${ms(span.start)}, lasts ${ms(span.ms)}` }),
  ];
  const used = usageText(usage as Usage | undefined);
  if (used) out.push(el("p", { class: "usage span-usage", text: used }));
  if (span.node !== undefined) {
    const node = span.node;
    out.push(
      el("button", {
        type: "button",
        class: "show-source",
        text: span.line === undefined ? `Show ${node} in the graph` : `Show line ${span.line} in the source`,
        onclick: () => app.actions.showNode(node),
      }),
    );
  }
  out.push(...section("Input", span.input), ...section("Output", span.output), ...section("Attributes", attributes));
  const call = span.attributes.call;
  const turn = Number(span.id.slice(1).split(".")[0]);
  if (typeof call === "number" && (span.kind === "model" || span.kind === "decision") && data.run.status !== "failed") {
    const box = el("div", { class: "prompts" });
    const button = el("button", {
      type: "button",
      class: "show-prompts",
      text: "Show the prompts (replays the turn)",
      onclick: () =>
        void api<{ events: Record<string, unknown>[] }>(
          "GET",
          `api/threads/${enc(data.run.threadId)}/turns/${turn}/calls`,
        )
          .then((calls) => {
            const e = calls.events[call] ?? {};
            box.replaceChildren(...section("Prompts", e.messages ?? e.decisions ?? e.calls ?? e));
          })
          .catch((err: Error) => box.replaceChildren(empty(err.message))),
    });
    out.push(button, box);
  }
  return out;
}
