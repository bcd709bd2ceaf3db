/**
 * Generated thread titles (`serve --titles`): once a thread's first exchange (the user's first
 * message and its reply) is committed, a short model call names the thread, which the store keeps
 * as its title (`setTitle`). It runs after the run has ended, so it never holds up a turn; a call
 * that fails or answers nothing usable leaves the title as it was.
 */
import type { ChatModel } from "@autograms/runtime";
import type { Store, TurnRecord } from "@autograms/store";

/** How long the naming call may take. */
const TITLE_TIMEOUT_MS = 20_000;
/** Longest title kept, in characters (the store's own titles are cut to 80 too). */
const MAX_TITLE_CHARS = 80;
/** How much of the exchange the model is shown, in characters of each message. */
const MAX_SHOWN_CHARS = 2_000;

const INSTRUCTION =
  "Name this conversation for a list of conversations: at most six words, no quotes, no final full stop. " +
  "Answer with the title alone.";

/** A model's answer as a title: its first line, without quotes or a final full stop; null when empty. */
export function titleOf(answer: string): string | null {
  const line = answer
    .trim()
    .split("\n")[0]!
    .replace(/^(title:\s*)/i, "")
    .replace(/^["'\u201c\u2018]+|["'\u201d\u2019]+$/g, "")
    .replace(/\.$/, "")
    .trim();
  if (line === "") return null;
  return line.length > MAX_TITLE_CHARS ? `${line.slice(0, MAX_TITLE_CHARS - 1)}\u2026` : line;
}

/** The thread's first exchange, when `turns` end with it: the one turn with a user's message and a reply. */
function firstExchange(turns: readonly TurnRecord[]): TurnRecord | null {
  const said = turns.filter((t) => t.user !== null && t.status !== "interrupted");
  const last = turns.at(-1);
  return last && said.length === 1 && said[0] === last && last.reply !== null ? last : null;
}

const cut = (text: string) => (text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}\u2026` : text);

export class ThreadTitles {
  /** Threads being named now: a second run ending meanwhile does not name one again. */
  private readonly naming = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly model: () => ChatModel,
  ) {}

  /** After a run of the thread ended with its turns committed: names it if that was its first exchange. */
  served(threadId: string): Promise<void> {
    if (this.naming.has(threadId)) return Promise.resolve();
    this.naming.add(threadId);
    // A failed call leaves the title as it was.
    return this.name(threadId)
      .catch(() => {})
      .finally(() => this.naming.delete(threadId));
  }

  private async name(threadId: string): Promise<void> {
    const turn = firstExchange(await this.store.turns(threadId));
    if (!turn) return;
    const answer = await this.model().complete({
      messages: [
        { role: "system", content: INSTRUCTION },
        { role: "user", content: `User: ${cut(turn.user!)}\nAssistant: ${cut(turn.reply!)}` },
      ],
      node: "(thread title)",
      purpose: "thought",
      signal: AbortSignal.timeout(TITLE_TIMEOUT_MS),
    });
    const title = titleOf(answer);
    if (title !== null) await this.store.setTitle(threadId, title);
  }
}
