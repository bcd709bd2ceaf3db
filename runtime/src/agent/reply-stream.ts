/**
 * A reply's text on its way to the caller (`RunOptions.onText`) while the model writes it. What
 * reaches the caller keeps one promise: when the run ends with a reply, the deltas sent for the
 * replying node since its last reset add up to the reply exactly. The model's answer is not yet
 * the reply (it is trimmed, a chat_suffix's `**` markers go, a check may reject it), so each
 * attempt's text is shown only as far as the final text can already be known from it
 * (known-text.ts), and the reply, once accepted, is reconciled with what was shown: the rest as a
 * further delta, or a reset and the whole text when it does not continue what was shown.
 */
import { KnownText, type TextRules } from "./known-text.js";

/** A piece of the reply being written at `node`, or the withdrawal of what was sent for it. */
export type ReplyChunk = { kind: "delta"; node: string; text: string } | { kind: "reset"; node: string };

/** One generation's hook into the stream: the model's `onText`, and its end. */
export interface Attempt {
  onText: (delta: string) => void;
  /** The model has answered (or failed): later pieces from it are ignored. */
  end(): void;
}

export class ReplyStream {
  private node: string | null = null;
  /** What the caller has been sent for `node` since its last reset. */
  private shown = "";
  /** `shown` comes from an earlier generation: anything new starts with a reset. */
  private stale = false;
  private closed = false;
  private failure: { error: unknown } | null = null;

  constructor(private readonly send: (chunk: ReplyChunk) => void) {}

  /** A generation starts at `node` (a first one, a regeneration, a retry, a round of tool calls). */
  attempt(node: string, rules: TextRules): Attempt {
    this.at(node);
    this.stale = this.shown !== "";
    const known = new KnownText(rules);
    let ended = false;
    return {
      onText: (delta) => {
        if (ended || this.closed || typeof delta !== "string" || delta === "") return;
        const piece = known.add(delta);
        if (piece === "") return;
        if (this.stale) this.reset(node);
        this.shown += piece;
        this.emit({ kind: "delta", node, text: piece });
      },
      end: () => void (ended = true),
    };
  }

  /** The reply is accepted: the caller gets what it lacks of it. */
  reply(node: string, text: string): void {
    this.at(node);
    if (this.closed) return;
    if (this.stale || !text.startsWith(this.shown)) this.reset(node);
    const rest = text.slice(this.shown.length);
    this.shown = text;
    if (rest) this.emit({ kind: "delta", node, text: rest });
  }

  /** The run is over (replied, failed, abandoned): a model still writing is no longer heard. */
  close(): void {
    this.closed = true;
  }

  /** Rethrows what the caller's `onText` threw, so the run fails with it rather than the model call. */
  check(): void {
    if (this.failure) throw this.failure.error;
  }

  private at(node: string): void {
    if (this.node === node) return;
    this.node = node;
    this.shown = "";
    this.stale = false;
  }

  private reset(node: string): void {
    this.stale = false;
    if (this.shown === "") return;
    this.shown = "";
    this.emit({ kind: "reset", node });
  }

  private emit(chunk: ReplyChunk): void {
    if (this.closed) return;
    try {
      this.send(chunk);
    } catch (error) {
      this.failure = { error };
      this.closed = true;
    }
  }
}
