/**
 * A reply's text on its way to the caller (`RunOptions.onText`) while the model writes it. What
 * reaches the caller keeps one promise: when the run ends with a reply, the deltas sent for the
 * replying node since its last reset add up to the reply exactly. The model's answer is not yet
 * the reply (it is trimmed, a chat_suffix's `**` markers go, a check may reject it), so each
 * attempt's text is shown only as far as the final text can already be known from it, and the
 * reply, once accepted, is reconciled with what was shown: the rest as a further delta, or a
 * reset and the whole text when it does not continue what was shown.
 */
import { hasBannedPhrase } from "../engine/suffix.js";

/** A piece of the reply being written at `node`, or the withdrawal of what was sent for it. */
export type ReplyChunk = { kind: "delta"; node: string; text: string } | { kind: "reset"; node: string };

/** What the runtime will do with the answer, as far as it matters to what may be shown early. */
export interface TextRules {
  /** A chat_suffix node: `**` markers are removed from the answer. */
  suffix: boolean;
  /** Answers containing one of these are generated again; none of them is ever shown while it streams. */
  bannedPhrases: readonly string[];
}

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
    let raw = "";
    let sent = "";
    let ended = false;
    return {
      onText: (delta) => {
        if (ended || this.closed || typeof delta !== "string" || delta === "") return;
        raw += delta;
        const visible = knownPart(raw, rules);
        if (visible.length <= sent.length || !visible.startsWith(sent)) return;
        if (this.stale) this.reset(node);
        const piece = visible.slice(sent.length);
        sent = visible;
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

/**
 * The part of a final text that an answer's beginning already fixes: without leading whitespace
 * and `**` markers (a `*` at the end may be half of one), and without what may still change or
 * be rejected: trailing whitespace (the answer is trimmed) and a tail that could be the start of
 * a banned phrase. An answer that holds a banned phrase fixes nothing more.
 */
export function knownPart(raw: string, rules: TextRules): string {
  let text = rules.suffix ? raw.replace(/\*+$/, "").replaceAll("**", "") : raw;
  text = text.trimStart().trimEnd();
  if (rules.bannedPhrases.length === 0) return text;
  if (hasBannedPhrase(text, rules.bannedPhrases)) return "";
  return text.slice(0, text.length - bannedStart(text, rules.bannedPhrases)).trimEnd();
}

/** The length of the longest end of `text` that begins one of `phrases` (case-insensitive). */
function bannedStart(text: string, phrases: readonly string[]): number {
  const lower = text.toLowerCase();
  const longest = Math.max(...phrases.map((p) => p.length));
  // Lower-casing that changes lengths (rare letters) would misalign the two: hold back generously.
  if (lower.length !== text.length) return Math.min(text.length, longest);
  let held = 0;
  for (const phrase of phrases) {
    const p = phrase.toLowerCase();
    for (let k = Math.min(p.length - 1, lower.length); k > held; k--) {
      if (lower.endsWith(p.slice(0, k))) {
        held = k;
        break;
      }
    }
  }
  return held;
}
