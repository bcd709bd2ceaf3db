/**
 * chat_suffix replies must end with the node's text. A reply that does is kept; one that has the
 * beginning of the text somewhere is cut there and the whole text appended (the original's
 * auto-completion); otherwise the reply is unusable and the step generates again or falls back.
 */

export type SuffixResult = { text: string; how: "generated" | "completed" } | null;

export function fitSuffix(reply: string, required: string): SuffixResult {
  // The instruction asks for the text in bold, so the markers are not part of the reply.
  const text = reply.replaceAll("**", "").trim();
  const want = required.trim();
  if (text.endsWith(want)) return { text, how: "generated" };
  const half = want.slice(0, Math.ceil(want.length / 2));
  const match = longestCommonSubstring(text, half);
  if (match.length > Math.min(40, want.length / 3)) {
    return { text: text.slice(0, match.start) + want, how: "completed" };
  }
  return null;
}

/** Longest common substring; `start` is where it begins in `a`. */
export function longestCommonSubstring(a: string, b: string): { start: number; length: number } {
  let best = { start: 0, length: 0 };
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      if (a[i - 1] === b[j - 1]) {
        row[j] = prev[j - 1]! + 1;
        if (row[j]! > best.length) best = { start: i - row[j]!, length: row[j]! };
      }
    }
    prev = row;
  }
  return best;
}

export function hasBannedPhrase(text: string, phrases: readonly string[]): boolean {
  if (!phrases.length) return false;
  const lower = text.toLowerCase();
  return phrases.some((p) => lower.includes(p.toLowerCase()));
}
