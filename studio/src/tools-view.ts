/**
 * The tools page: the agent's tools (GET /api/tools), and the chosen one's form (tool-form.ts: from
 * its schema, or one JSON field for a plain function, which has none) to run it outside any turn
 * (POST /api/tools/:name/call), its result or its error shown under the form.
 */
import { api, ApiError } from "./api.js";
import type { App } from "./app.js";
import { byId, el, empty, enc, fillList, markItem } from "./dom.js";
import { freeForm, type ToolForm, type ToolSchema, toolForm } from "./tool-form.js";

interface ListedTool {
  name: string;
  description?: string;
  /** null: a plain function, with no schema. */
  parameters: ToolSchema | null;
}

type CallAnswer = { result: unknown } | { error: { code: string; message: string } };

export async function loadTools(app: App): Promise<void> {
  const { tools } = await api<{ tools: ListedTool[] }>("GET", "api/tools");
  const items = tools.map((t) =>
    el("li", { "data-tool": t.name }, [
      el("button", { type: "button", onclick: () => openTool(app, t) }, [
        el("code", { class: "name", text: t.name }),
        t.description ? el("span", { class: "meta", text: t.description }) : null,
        t.parameters === null ? el("span", { class: "meta", text: "a plain function: no schema" }) : null,
      ]),
    ]),
  );
  fillList(byId("tool-list"), items, "The agent has no tool.");
  if (tools.length === 0)
    byId("tool-detail").replaceChildren(
      empty(
        "Tools made with defineTool, MCP servers' tools and the functions the agent's code imports are listed here.",
      ),
    );
}

function openTool(app: App, tool: ListedTool): void {
  markItem(byId("tool-list"), "tool", tool.name, "selected");
  const form = tool.parameters === null ? freeForm("tool-arg") : toolForm(tool.parameters, "tool-arg");
  const answer = el("div", { id: "tool-answer", role: "status", "aria-live": "polite" });
  const run = el("button", { id: "tool-run", type: "submit", text: "Run" });
  const shell = el("form", { id: "tool-form" }, [...form.fields, el("div", { class: "tool-actions" }, [run])]);
  shell.addEventListener("submit", (ev) => {
    ev.preventDefault();
    run.disabled = true;
    answer.replaceChildren(empty("Running…"));
    app.report(
      callTool(tool.name, form.read)
        .then((shown) => answer.replaceChildren(...shown))
        .finally(() => (run.disabled = false)),
    );
  });
  const about = tool.description ? el("p", { class: "about", text: tool.description }) : null;
  const none = form.fields.length ? null : empty("It takes no arguments.");
  byId("tool-detail").replaceChildren(
    ...[el("h3", { text: tool.name }), about, none, shell, answer].filter((e) => e !== null),
  );
  shell.querySelector<HTMLElement>("input, select, textarea, button")?.focus();
}

/** The call's outcome as the page shows it: the result, the tool's failure, or the server's refusal. */
async function callTool(name: string, read: ToolForm["read"]): Promise<HTMLElement[]> {
  let answer: CallAnswer;
  try {
    answer = await api<CallAnswer>("POST", `api/tools/${enc(name)}/call`, { arguments: read() });
  } catch (e) {
    const code = e instanceof ApiError ? e.code : "bad_arguments";
    const message = e instanceof ApiError ? e.detail : (e as Error).message;
    answer = { error: { code, message } };
  }
  if ("error" in answer)
    return [
      el("h4", { class: "failed", text: `Error: ${answer.error.code}` }),
      el("pre", { class: "tool-output failed", text: answer.error.message }),
    ];
  return [
    el("h4", { class: "ok", text: "Result" }),
    el("pre", { class: "tool-output", tabindex: "0", text: JSON.stringify(answer.result, null, 2) }),
  ];
}
