/** The chat: the thread's turns as messages, a reply streaming in, the composer. */
import { accepted, api, refusal, request, send, threadView } from "./api.js";
import type { App, ReplyView } from "./app.js";
import { el, empty, enc, newId } from "./dom.js";
import { readEvents } from "./sse.js";
import { toolCallView, type ToolCallShown } from "./tool-calls.js";
import type { RunEvent, ThreadInfo, Turn } from "./types.js";

function bubble(app: App, who: "user" | "agent", text: string, extra?: string): HTMLElement {
  const b = el("div", { class: `msg ${who}${extra ? ` ${extra}` : ""}` }, [el("div", { class: "text", text })]);
  app.ui.messages.appendChild(b);
  app.ui.messages.scrollTop = app.ui.messages.scrollHeight;
  return b;
}

function textOf(b: HTMLElement): HTMLElement {
  return b.firstChild as HTMLElement;
}

/** The bubble a reply streams into. */
const streaming = (app: App) => bubble(app, "agent", "", "streaming");

/** The reply's last word: its text, no longer streaming, marked as a note or an error when it is one. */
function settle(view: ReplyView, text: string, mark?: "note" | "error"): void {
  if (!view.reply) return;
  view.reply.classList.remove("streaming");
  if (mark) view.reply.classList.add(mark);
  textOf(view.reply).textContent = text;
}

export function renderThread(app: App, thread: ThreadInfo | null, turns: Turn[]): void {
  const { state, ui } = app;
  state.thread = thread;
  state.turns = turns;
  state.selectedTurn = null;
  ui.messages.replaceChildren();
  for (const t of turns) {
    // A regenerated turn's first answer is no longer the conversation's (the timeline keeps it).
    if (t.status === "replaced") continue;
    if (t.user !== null) bubble(app, "user", t.user);
    for (const call of t.toolCalls ?? []) ui.messages.appendChild(toolCallView(call));
    if (t.status === "interrupted") bubble(app, "agent", "(interrupted: no reply)", "note");
    else if (t.reply !== null) bubble(app, "agent", t.reply);
  }
  if (thread?.done) bubble(app, "agent", "The conversation has ended.", "note");
  if (!thread) ui.messages.appendChild(empty("Choose a thread, or start a new one: the agent speaks first."));
  app.actions.renderTimeline();
  const hint = turns.length ? "Click a turn to see the memory as it was after it, and fork from there." : "";
  ui.detail.replaceChildren(empty(hint));
  updateComposer(app);
}

export function updateComposer(app: App): void {
  const { state, ui } = app;
  const ended = !!state.thread?.done;
  const off = state.running || !state.threadId || ended;
  ui.input.disabled = off;
  ui.send.disabled = off;
  // Stop is there only while a reply is being written; Regenerate once there is a turn to run again.
  ui.stop.hidden = !state.running;
  ui.regenerate.disabled = state.running || !state.threadId || state.turns.length === 0;
  ui.input.placeholder = ended
    ? "The conversation has ended"
    : state.threadId
      ? "Message (Enter to send, Shift+Enter for a new line)"
      : "Start a new thread first";
}

/** One run event (run-events.ts) as it streams: tokens into the reply, steps onto the graph. True at the run's end. */
function handle(app: App, e: RunEvent, view: ReplyView): boolean {
  switch (e.type) {
    case "run-start":
      app.status(`turn ${e.turn} running\u2026`);
      if (view.resume && e.user !== null && e.user !== undefined && !view.shownUser) {
        view.shownUser = true;
        bubble(app, "user", e.user);
      }
      view.reply ??= streaming(app);
      app.actions.clearMarks();
      return false;
    case "step":
      app.actions.light(e.event.node);
      // A tool call goes where it happened: before the reply being written.
      if (e.event.kind === "tool_call")
        app.ui.messages.insertBefore(toolCallView(e.event as ToolCallShown), view.reply);
      return false;
    case "text-delta":
      view.reply ??= streaming(app);
      textOf(view.reply).textContent += e.delta;
      app.ui.messages.scrollTop = app.ui.messages.scrollHeight;
      if (app.ui.lit.dataset.node !== e.node) app.actions.light(e.node);
      return false;
    case "text-reset":
      if (view.reply) textOf(view.reply).textContent = "";
      return false;
    case "run-finish":
      if (e.reply === null) settle(view, "(no reply: the conversation ended)", "note");
      else settle(view, e.reply);
      app.status(`turn ${e.turn} done${e.done ? ": the conversation has ended" : ""}`);
      return true;
    case "run-error":
      showError(app, view, e.code, e.message);
      return true;
  }
  return false;
}

function showError(app: App, view: ReplyView, code: string, message: string): void {
  settle(view, `${code}: ${message}`, "error");
  app.status(`${code}: ${message}`, true);
}

/** Follows a run to its end: from res, then (when the stream breaks, or to join a run already going) from the thread's latest run. */
export async function follow(app: App, first: Response | null, view: ReplyView): Promise<void> {
  const { state } = app;
  state.running = true;
  updateComposer(app);
  let lastId = "0";
  let finished = false;
  let res = first;
  try {
    for (let attempt = 0; attempt < 5 && !finished; attempt++) {
      if (!res) {
        res = await request(`api/threads/${enc(state.threadId ?? "")}/runs/latest/stream`, {
          headers: { "Last-Event-ID": lastId },
        });
        if (res.status !== 200) break;
      }
      try {
        await readEvents<RunEvent>(res, (id, e) => {
          if (id) lastId = id;
          finished = handle(app, e, view);
          return finished;
        });
      } catch (err) {
        app.status(`the stream broke (${(err as Error).message}); resuming\u2026`, true);
      }
      res = null;
    }
    // The composer opens again only once the thread's list and turns show the run's turn.
    await refresh(app);
  } finally {
    state.running = false;
    app.ui.lit.classList.add("idle");
    updateComposer(app);
  }
}

/** The thread list and the open thread's turns as the store has them now. */
async function refresh(app: App): Promise<void> {
  const { state } = app;
  const id = state.threadId;
  await app.actions.loadThreads();
  if (id === null || id !== state.threadId) return;
  // A new thread whose opening turn failed was never made.
  const data = await threadView(id);
  if (!data) return;
  state.thread = data.thread;
  state.turns = data.turns;
  app.actions.renderTimeline();
}

/** Sends a message (null: the agent's opening) and streams the run. */
export async function run(app: App, message: string | null): Promise<void> {
  const view: ReplyView = { reply: null };
  if (message !== null) bubble(app, "user", message);
  view.reply = streaming(app);
  const path = `api/threads/${enc(app.state.threadId ?? "")}/runs`;
  const res = await send("POST", path, { message, messageId: newId() }, { accept: "text/event-stream" });
  if (!res.ok) {
    const err = await refusal(res);
    showError(app, view, err.code, err.detail);
    return;
  }
  await follow(app, res, view);
}

/** Stops the reply being written (POST /api/chat/:id/stop): its stream ends with a `stopped` error. */
export async function stop(app: App): Promise<void> {
  if (!app.state.running || !app.state.threadId) return;
  await api("POST", `api/chat/${enc(app.state.threadId)}/stop`);
}

/**
 * Runs the thread's last turn again (POST /api/chat with `trigger: "regenerate-message"`): the new
 * reply takes the old one's place. The answer is a UI message stream; the page follows the run
 * through its own event stream instead, as it follows every run.
 */
export async function regenerate(app: App): Promise<void> {
  const { state, ui } = app;
  if (state.running || !state.threadId || state.turns.length === 0) return;
  const res = await accepted(
    await send("POST", "api/chat", { id: state.threadId, messages: [], trigger: "regenerate-message" }),
  );
  void res.body?.cancel();
  // The old reply (or the note of a turn that had none) gives way to the new one.
  const last = ui.messages.lastElementChild;
  if (last?.classList.contains("agent")) last.remove();
  await follow(app, null, { reply: streaming(app), resume: true, shownUser: true });
}
