/**
 * A thread as the Vercel AI SDK's `UIMessage[]` (`GET /api/chat/:id/messages`), so that
 * `useChat({ id, messages })` restores a chat as its stream showed it: each turn's user message
 * with the id the client gave it, each reply with the id its stream's `start` gave it
 * (`replyMessageId`), text parts only. The conversation is what the agent remembers: a turn
 * whose run was stopped or interrupted (no reply, the memory as it was) and a turn answered again
 * (regenerated) are left out.
 */
import type { TurnRecord } from "@autograms/store";

export interface UiMessage {
  id: string;
  role: "user" | "assistant";
  parts: { type: "text"; text: string }[];
  metadata?: { turn: number };
}

/** The id of the assistant message that holds turn `turn`'s reply, in its stream and in the thread's messages. */
export const replyMessageId = (turn: number) => `reply-${turn}`;

/** The id of a user message sent without one (by the CLI, by the run endpoint without `messageId`). */
const userMessageId = (turn: number) => `user-${turn}`;

/** A user message whose turn is under way: its run has started, nothing of it is committed. */
export interface InFlight {
  turn: number;
  messageId: string | null;
  user: string;
}

export function uiMessagesOf(turns: readonly TurnRecord[], inFlight: InFlight | null): UiMessage[] {
  const out: UiMessage[] = [];
  const text = (t: string) => [{ type: "text" as const, text: t }];
  for (const t of turns) {
    if (t.status !== "ok") continue;
    if (t.user !== null) out.push({ id: t.messageId ?? userMessageId(t.seq), role: "user", parts: text(t.user) });
    if (t.reply !== null)
      out.push({ id: replyMessageId(t.seq), role: "assistant", parts: text(t.reply), metadata: { turn: t.seq } });
  }
  if (inFlight)
    out.push({ id: inFlight.messageId ?? userMessageId(inFlight.turn), role: "user", parts: text(inFlight.user) });
  return out;
}
