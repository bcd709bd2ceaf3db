/**
 * The thread's model settings (routes/settings.ts): the model, temperature and bound on tokens of
 * its next messages, among what the server was started with. Blank fields leave the server's own.
 */
import { api } from "./api.js";
import type { App } from "./app.js";
import { byId, el, enc } from "./dom.js";
import type { ModelMenu } from "../../server/src/settings/model-menu.js";
import type { ModelSettings, ThreadInfo } from "./types.js";

type Form = ReturnType<typeof formOf>;

let menu: ModelMenu | null = null;
let form: Form | null = null;

/** "model x · temperature 0.7 · max 300 tokens", or the server's own. */
function describe(s: ModelSettings | null | undefined): string {
  if (!s || Object.keys(s).length === 0) return `${menu?.model ?? "model"} (the server's settings)`;
  return [
    s.model ?? menu?.model ?? "model",
    s.temperature === undefined ? "" : `temperature ${s.temperature}`,
    s.maxTokens === undefined ? "" : `max ${s.maxTokens} tokens`,
  ]
    .filter(Boolean)
    .join(" \u00b7 ");
}

/** A turn's settings in its timeline entry; "" when it ran as the server was started. */
export function turnSettingsText(s: ModelSettings | undefined): string {
  return s ? describe(s) : "";
}

/** A blank field leaves the server's own value. */
const numberField = (id: string, min: string, max: string | undefined, step: string, inputmode: string) =>
  el("input", { id, type: "number", min, max, step, placeholder: "server's", inputmode });

function formOf(menu: ModelMenu) {
  const models = menu.models.map((m) => el("option", { value: m, text: m }));
  return {
    summary: el("summary"),
    model: el("select", { id: "settings-model" }, models),
    temperature: numberField("settings-temperature", "0", String(menu.maxTemperature), "0.1", "decimal"),
    maxTokens: numberField("settings-max-tokens", "1", undefined, "1", "numeric"),
    apply: el("button", { type: "submit", id: "settings-apply", text: "Apply" }),
    reset: el("button", { type: "button", id: "settings-reset", text: "Server's settings" }),
    note: el("p", { class: "settings-note", role: "status" }),
  };
}

export async function wireSettings(app: App): Promise<void> {
  menu = await api<ModelMenu>("GET", "api/models");
  const box = byId("model-settings");
  const field = (label: string, input: HTMLElement) => el("label", null, [el("span", { text: label }), input]);
  const f = formOf(menu);
  form = f;
  const controls = [f.model, f.temperature, f.maxTokens, f.apply, f.reset];
  if (!menu.settable) for (const c of controls) c.setAttribute("disabled", "");
  if (!menu.switchable) f.model.setAttribute("disabled", "");
  const body = el("form", { class: "settings-form" }, [
    field("Model", f.model),
    field("Temperature", f.temperature),
    field("Max tokens", f.maxTokens),
    el("div", { class: "settings-actions" }, [f.apply, f.reset]),
    f.note,
  ]);
  body.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void save(app, chosen(f)).catch((e: Error) => shown(e.message, true));
  });
  f.reset.addEventListener("click", () => void save(app, {}).catch((e: Error) => shown(e.message, true)));
  box.replaceChildren(f.summary, body);
  showSettings(app.state.thread);
  if (!menu.settable)
    shown(`${menu.model ?? "This model"} takes no settings: it answers the same way whatever is asked.`);
  else if (menu.listError) shown(`The server's models could not be listed (${menu.listError}).`, true);
}

function chosen(f: Form): ModelSettings {
  const out: ModelSettings = {};
  if (menu?.switchable && f.model.value && f.model.value !== menu.model) out.model = f.model.value;
  if (f.temperature.value !== "") out.temperature = Number(f.temperature.value);
  if (f.maxTokens.value !== "") out.maxTokens = Number(f.maxTokens.value);
  return out;
}

async function save(app: App, settings: ModelSettings): Promise<void> {
  const id = app.state.threadId;
  if (!id) return shown("Open or start a thread first.", true);
  const r = await api<{ settings: ModelSettings | null }>("PUT", `api/threads/${enc(id)}/settings`, settings);
  if (app.state.thread) app.state.thread.settings = r.settings;
  showSettings(app.state.thread, r.settings);
  shown(r.settings ? "The next messages use these settings." : "The next messages use the server's settings.");
}

function shown(text: string, isError = false): void {
  if (!form) return;
  form.note.textContent = text;
  form.note.className = `settings-note${isError ? " error" : ""}`;
}

/** The thread's settings in the form (a new thread: the server's). */
export function showSettings(thread: ThreadInfo | null, settings = thread?.settings ?? null): void {
  if (!form || !menu) return;
  form.summary.textContent = `Model: ${describe(settings)}`;
  form.model.value = settings?.model ?? menu.model ?? "";
  form.temperature.value = settings?.temperature === undefined ? "" : String(settings.temperature);
  form.maxTokens.value = settings?.maxTokens === undefined ? "" : String(settings.maxTokens);
}
