/**
 * A turn's prompts and calls: every model call as it was sent (the messages, the multiple-choice
 * question and its choices) and what came back, every tool call with its arguments and result,
 * every print. The server rebuilds them by replaying the turn from its recorded answers.
 */
import { api } from "./api.js";
import { callText, el, empty, enc } from "./dom.js";
import { nodeLabel } from "./node-label.js";
import type { Graph, Loc } from "./types.js";
import { usageText, type Usage } from "./usage.js";

interface Message {
  role: string;
  content: string | null;
}
interface Decision {
  purpose: string;
  prompt: string;
  choices: string[];
  chosen: number;
}
type Event = { node: string; kind: string; loc: Loc | null } & Record<string, unknown>;
interface Replayed {
  events: Event[];
  /** The turn's tokens (and cost), where the model reported them. */
  usage?: Usage;
  stopped: string | null;
}

const answer = (title: string, text: string) =>
  el("div", { class: "answer" }, [el("h5", { text: title }), callText(text)]);

function messagesView(messages: Message[]): HTMLElement {
  const items = messages.map((m) =>
    el("li", { class: `role-${m.role}` }, [el("span", { class: "role", text: m.role }), callText(m.content ?? "")]),
  );
  return el("ol", { class: "messages" }, items);
}

function decisionView(d: Decision): HTMLElement {
  const choices = d.choices.map((c, i) =>
    el("li", { class: i === d.chosen ? "chosen" : "", text: c + (i === d.chosen ? "  \u2190 chosen" : "") }),
  );
  return el("div", { class: "decision" }, [callText(d.prompt), el("ol", { class: "choices" }, choices)]);
}

function itemOf(graph: Graph | undefined, title: string, e: Event, body: HTMLElement[], open = false): HTMLElement {
  const label = nodeLabel(graph, e.node, e.loc);
  // A node named by its line needs the line said once.
  const where = e.loc && label === e.node ? ` \u00b7 line ${e.loc.line}` : "";
  const took =
    typeof e.ms === "number"
      ? ` \u00b7 ${e.ms < 1000 ? `${Math.round(e.ms)} ms` : `${(e.ms / 1000).toFixed(1)} s`}`
      : "";
  const used = usageText(e.usage as Usage | undefined);
  return el("details", { class: `call call-${e.kind}`, "data-node": e.node, ...(open && { open: "" }) }, [
    el("summary", null, [
      el("code", { text: label, ...(label !== e.node && { title: e.node }) }),
      el("span", { text: ` ${title}${where}${took}` }),
      used ? el("span", { class: "usage", text: ` \u00b7 ${used}` }) : null,
    ]),
    ...body,
  ]);
}

/** The events of a replayed turn that say what was sent and what came back, as items. */
function items(events: Event[], graph: Graph | undefined): HTMLElement[] {
  const out: HTMLElement[] = [];
  const item = (title: string, e: Event, body: HTMLElement[], open = false) => itemOf(graph, title, e, body, open);
  for (const e of events) {
    if (e.kind === "generate") {
      const raw = (e.raw as string[]) ?? [];
      const toolAnswers =
        (e.toolAnswers as { text: string; toolCalls: { name: string; arguments: string }[] }[] | undefined) ?? [];
      out.push(
        item(
          `${String(e.purpose)}: ${(e.messages as Message[]).length} messages sent`,
          e,
          [
            messagesView(e.messages as Message[]),
            ...toolAnswers.map((a) =>
              answer(
                "answer with tool calls",
                `${a.text}\n${a.toolCalls.map((c) => `\u2192 ${c.name}(${c.arguments})`).join("\n")}`.trim(),
              ),
            ),
            ...raw.map((r, i) => answer(raw.length > 1 ? `answer ${i + 1} of ${raw.length}` : "answer", r)),
          ],
          true,
        ),
      );
    }
    for (const d of (e.decisions as Decision[] | undefined) ?? [])
      out.push(item(`${d.purpose}: ${d.choices[d.chosen] ?? ""}`, e, [decisionView(d)]));
    if (e.kind === "custom") {
      for (const c of (e.calls as (
        | { kind: "complete"; messages: Message[]; answer: string }
        | ({ kind: "choose"; answer: number } & Decision)
      )[]) ?? []) {
        out.push(
          c.kind === "complete"
            ? item(`action ${String(e.action)}: ${c.messages.length} messages sent`, e, [
                messagesView(c.messages),
                el("h5", { text: "answer" }),
                callText(c.answer),
              ])
            : item(`action ${String(e.action)}: choice`, e, [
                decisionView({ ...c, chosen: c.answer, purpose: "choice" }),
              ]),
        );
      }
    }
    if (e.kind === "tool_call") {
      const failed = typeof e.error === "string";
      out.push(
        item(`tool ${String(e.tool)}${e.round === 0 ? " (from code)" : ""}${failed ? " failed" : ""}`, e, [
          callText(`arguments: ${String(e.arguments)}`),
          callText(failed ? String(e.error) : JSON.stringify(e.result, null, 2), failed ? "error" : ""),
        ]),
      );
    }
    if (e.kind === "log") out.push(item(`console.${String(e.level)}`, e, [callText(String(e.text))], true));
  }
  return out;
}

/** `graph`: the agent's, whose nodes' lines name the nodes the compiler made. */
export async function callsView(threadId: string, seq: number, graph?: Graph): Promise<HTMLElement> {
  const data = await api<Replayed>("GET", `api/threads/${enc(threadId)}/turns/${seq}/calls`);
  const list = items(data.events, graph);
  const used = usageText(data.usage);
  return el("div", { class: "calls" }, [
    used ? el("p", { class: "usage turn-usage", text: `This turn: ${used}` }) : null,
    ...(list.length ? list : [empty("This turn asked the model nothing and called no tool.")]),
    data.stopped ? empty(`Shown up to where the replay stopped: ${data.stopped}`) : null,
  ]);
}
