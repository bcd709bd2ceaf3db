/**
 * The part of a reply that an answer's beginning already fixes, worked out piece by piece as the
 * answer streams in. The reply is the answer trimmed (a chat_suffix's `**` markers removed first),
 * and an answer with a banned phrase is rejected; so what is known is the answer without leading
 * whitespace and markers (a `*` at the end may be half of one), less what may still change or be
 * rejected: trailing whitespace, and a tail that could be the start of a banned phrase. An answer
 * in which a banned phrase appears fixes nothing more.
 *
 * Each piece costs time in its own length and the longest phrase's, not in the answer's, so a
 * long reply in thousands of pieces streams in linear time.
 */
import { hasBannedPhrase } from "../engine/suffix.js";

/** What the runtime will do with the answer, as far as it matters to what may be shown early. */
export interface TextRules {
  /** A chat_suffix node: `**` markers are removed from the answer. */
  suffix: boolean;
  /** Answers containing one of these are generated again; none of them is ever shown while it streams. */
  bannedPhrases: readonly string[];
}

const SPACE = /\s/;

/** `end`, less the whitespace before it. */
function withoutTrailingSpace(text: string, end: number): number {
  while (end > 0 && SPACE.test(text[end - 1]!)) end--;
  return end;
}

export class KnownText {
  /** The answer so far not given out yet (markers removed, up to `stars`; leading whitespace dropped). */
  private tail = "";
  /** The end of what was given out, as long as the longest phrase: where a phrase may have begun. */
  private recent = "";
  /** Some text (not whitespace) has come: whitespace is no longer leading. */
  private started = false;
  /** `*`s at the end of the answer, not yet known to be markers or text. */
  private stars = 0;
  private banned = false;
  private readonly longest: number;

  constructor(private readonly rules: TextRules) {
    this.longest = Math.max(0, ...rules.bannedPhrases.map((p) => p.length));
  }

  /** Takes the next piece of the answer; returns what it adds to the known text (often ""). */
  add(piece: string): string {
    if (this.banned) return "";
    // Only the text not given out is kept whole: it stays short (held whitespace, a phrase's
    // beginning, the new piece), so a long answer is never copied or scanned again.
    this.tail += this.rules.suffix ? this.withoutMarkers(piece) : piece;
    if (!this.started) {
      this.tail = this.tail.trimStart();
      this.started = this.tail !== "";
    }
    let end = withoutTrailingSpace(this.tail, this.tail.length);
    if (this.rules.bannedPhrases.length > 0) {
      if (hasBannedPhrase(this.recent + this.tail.slice(0, end), this.rules.bannedPhrases)) {
        this.banned = true;
        return "";
      }
      end = withoutTrailingSpace(
        this.tail,
        end - bannedStart(this.tail.slice(Math.max(0, end - this.longest), end), this.rules.bannedPhrases),
      );
    }
    if (end === 0) return "";
    const known = this.tail.slice(0, end);
    this.tail = this.tail.slice(end);
    this.recent = (this.recent + known).slice(-this.longest);
    return known;
  }

  /** A run of k `*`s is k % 2 of them once `**` pairs are gone; a run at the end waits for its end. */
  private withoutMarkers(piece: string): string {
    let out = "";
    for (const ch of piece) {
      if (ch === "*") {
        this.stars++;
        continue;
      }
      if (this.stars % 2 === 1) out += "*";
      this.stars = 0;
      out += ch;
    }
    return out;
  }
}

/** The length of the longest end of `text` that begins one of `phrases` (case-insensitive). */
function bannedStart(text: string, phrases: readonly string[]): number {
  const lower = text.toLowerCase();
  // Lower-casing that changes lengths (rare letters) would misalign the two: hold back all of it.
  if (lower.length !== text.length) return text.length;
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
