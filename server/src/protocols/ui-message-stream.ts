/**
 * The run's events as the Vercel AI SDK UI message stream (protocol v1), which `useChat` of
 * `@ai-sdk/react` and assistant-ui read: `start`, then the reply as `text-start` / `text-delta` /
 * `text-end` (the assistant message's id is that of its turn, as in the thread's messages), each step of the agent as a transient `data-step` part (`useChat`'s `onData` gets it,
 * the message does not keep it: a turn takes dozens of steps, and the client sends its messages
 * back with each request), a native tool call as a `data-tool-call` part (kept), then `finish` (or
 * `error`) and `[DONE]`.
 *
 * A pure translation: the same events give the same frames, numbered from 1, so a client that
 * reconnects with the number of the last frame it saw (`Last-Event-ID`) is sent exactly the rest
 * (the frames are made again from the run's first event and those up to that number skipped).
 */
import type { NumberedRunEvent, RunEvent } from "../runs/run-events.js";
import { stepJson, stepKind, type StepEvent } from "../runs/step-text.js";
import { replyMessageId } from "./ui-messages.js";

export type UiChunk =
  | { type: "start"; messageId: string; messageMetadata: { threadId: string; runId: string; turn: number } }
  | { type: "text-start"; id: string }
  | { type: "text-delta"; id: string; delta: string }
  | { type: "text-end"; id: string }
  | { type: `data-${string}`; data: unknown; transient?: true }
  | { type: "error"; errorText: string }
  | { type: "finish"; finishReason: "stop" | "error"; messageMetadata?: { turn: number; done: boolean } };

export interface UiFrame {
  /** 1, 2, 3, ... over the whole response: the SSE `id:`. */
  id: number;
  /** A chunk's JSON, or the closing `[DONE]`. */
  data: string;
}

/** A step's part (`data-step`, or `data-tool-call` for a native tool call): its data is the step's event, written from its JSON text. */
type StepPart = { step: StepEvent };

export const UI_MESSAGE_STREAM_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-vercel-ai-ui-message-stream": "v1",
  "x-accel-buffering": "no",
} as const;

export class UiMessageTranslator {
  private frame = 0;
  private textParts = 0;
  /** The text part being written: its id and the node whose text it is. */
  private open: { id: string; node: string } | null = null;

  /**
   * The frames of the run's next event, those numbered after `after` only (a client resuming
   * after it has the others): a step's part is written around the step's own JSON text, not
   * serialized again.
   */
  translate({ event }: NumberedRunEvent, after = 0): UiFrame[] {
    const frames: UiFrame[] = [];
    for (const chunk of this.chunks(event)) {
      const id = ++this.frame;
      if (id > after) frames.push({ id, data: chunkText(chunk) });
    }
    return frames;
  }

  private chunks(e: RunEvent): (UiChunk | StepPart | "[DONE]")[] {
    switch (e.type) {
      case "run-start":
        return [
          {
            type: "start",
            messageId: replyMessageId(e.turn),
            messageMetadata: { threadId: e.threadId, runId: e.runId, turn: e.turn },
          },
        ];
      case "step":
        // A step ends the text before it: the reply of that node is complete (the generation's
        // step comes after its text), and text after it is another reply (an opening, then the answer).
        return [...this.close(), { step: e }];
      case "text-delta": {
        const out: UiChunk[] = [];
        if (this.open && this.open.node !== e.node) out.push(...this.close());
        if (!this.open) {
          this.open = { id: `text-${++this.textParts}`, node: e.node };
          out.push({ type: "text-start", id: this.open.id });
        }
        out.push({ type: "text-delta", id: this.open.id, delta: e.delta });
        return out;
      }
      case "text-reset":
        // The stream cannot take text back: the withdrawn part is ended, a data part says so, and the
        // text generated again is a new part.
        return [...this.close(), { type: "data-text-reset", data: { node: e.node }, transient: true }];
      case "run-finish":
        return [
          ...this.close(),
          { type: "finish", finishReason: "stop", messageMetadata: { turn: e.turn, done: e.done } },
          "[DONE]",
        ];
      case "run-error":
        return [
          ...this.close(),
          { type: "error", errorText: `${e.code}: ${e.message}` },
          { type: "finish", finishReason: "error" },
          "[DONE]",
        ];
    }
  }

  private close(): UiChunk[] {
    if (!this.open) return [];
    const { id } = this.open;
    this.open = null;
    return [{ type: "text-end", id }];
  }
}

/**
 * A frame's `data`: the chunk's JSON. A step's part is written around the step's own JSON text
 * (made once where the turn was played): a native tool call is kept in the message
 * (`data-tool-call`), every other step is transient (`data-step`).
 */
function chunkText(chunk: UiChunk | StepPart | "[DONE]"): string {
  if (chunk === "[DONE]") return chunk;
  if (!("step" in chunk)) return JSON.stringify(chunk);
  const data = stepJson(chunk.step);
  return stepKind(chunk.step) === "tool_call"
    ? `{"type":"data-tool-call","data":${data}}`
    : `{"type":"data-step","data":${data},"transient":true}`;
}
