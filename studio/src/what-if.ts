/**
 * "What if": a variable of the memory after a turn set to another value on a fork of the thread
 * at that turn, and the thread's next message sent to the fork, its reply shown beside the
 * original's. The thread itself is left as it is; the fork stays, to go on with.
 */
import { accepted, api, send } from "./api.js";
import type { App } from "./app.js";
import { el, enc, short } from "./dom.js";
import { readEvents } from "./sse.js";
import type { RunEvent, ThreadInfo } from "./types.js";

/** Asks for the new value, forks, sets it, reruns the next message; the comparison, or null if cancelled. */
export async function whatIf(
  app: App,
  seq: number,
  frame: number,
  name: string,
  current: unknown,
): Promise<HTMLElement | null> {
  const text = prompt(`A new value for ${name} after turn ${seq} (JSON):`, JSON.stringify(current));
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`the new value of ${name} is not JSON: ${text}`);
  }
  const source = app.state.threadId ?? "";
  const next = app.state.turns.find((t) => t.seq === seq + 1);
  const { thread } = await api<{ thread: ThreadInfo }>("POST", `api/threads/${enc(source)}/fork`, { turn: seq });
  await api("POST", `api/threads/${enc(thread.id)}/variables`, { frame, set: { [name]: value } });
  let rerun = "(the thread has no message after this turn: send the fork one)";
  if (next && next.user !== null) rerun = await rerunOn(thread.id, next.user);
  await app.actions.loadThreads();
  const column = (cls: string, title: string, reply: string) =>
    el("div", { class: cls }, [
      el("h5", { text: title }),
      next?.user != null ? el("p", { class: "said", text: `User: ${next.user}` }) : null,
      el("p", { class: "reply", text: reply }),
    ]);
  return el("section", { class: "what-if", "data-fork": thread.id }, [
    el("h4", { text: `What if ${name} were ${short(value, 80)} after turn ${seq}` }),
    el("div", { class: "side-by-side" }, [
      column("original", `This thread, turn ${seq + 1}`, next ? (next.reply ?? "(no reply)") : "(no turn yet)"),
      column("rerun", `Fork ${thread.id}, with the change`, rerun),
    ]),
    el("button", {
      class: "open-fork",
      text: "Open the fork",
      onclick: () => void app.actions.selectThread(thread.id),
    }),
  ]);
}

/** The fork's reply to the message, or what went wrong, once its run ends. */
async function rerunOn(threadId: string, message: string): Promise<string> {
  const res = await accepted(await send("POST", `api/threads/${enc(threadId)}/runs`, { message }));
  let outcome = "(the run ended without a reply)";
  await readEvents<RunEvent>(res, (_id, e) => {
    if (e.type === "run-finish") outcome = e.reply ?? "(no reply)";
    else if (e.type === "run-error") outcome = `(failed: ${e.message})`;
    return e.type === "run-finish" || e.type === "run-error";
  });
  return outcome;
}
