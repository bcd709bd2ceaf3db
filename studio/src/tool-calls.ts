/**
 * Tool calls folded into the chat where they happened: between the user's message and the reply
 * of the turn that made them, each a closed `<details>` with the call's arguments and its result
 * (or error). From a turn's `toolCalls` once stored, from the run's `tool_call` steps as it goes.
 */
import { callText, el } from "./dom.js";

export interface ToolCallShown {
  node: string;
  tool: string;
  /** JSON text, as the model (or the agent's code) wrote it. */
  arguments: string;
  result?: unknown;
  error?: string;
}

/** At most this many characters of arguments in the summary line; the whole text is inside. */
const SUMMARY_CHARS = 80;

export function toolCallView(call: ToolCallShown): HTMLElement {
  const args =
    call.arguments.length > SUMMARY_CHARS ? `${call.arguments.slice(0, SUMMARY_CHARS - 1)}\u2026` : call.arguments;
  const failed = call.error !== undefined;
  return el("details", { class: `tool-call${failed ? " failed" : ""}`, "data-tool": call.tool }, [
    el("summary", null, [
      el("span", { class: "tool-label", text: failed ? "tool failed" : "tool" }),
      el("code", { text: ` ${call.tool}(${args})` }),
    ]),
    callText(`arguments: ${call.arguments}`),
    callText(
      failed ? String(call.error) : "result" in call ? JSON.stringify(call.result, null, 2) : "(no result kept)",
      failed ? "error" : "",
    ),
  ]);
}
