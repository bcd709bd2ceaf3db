/**
 * Cutting text to a budget without splitting a character: a cut that falls between the two
 * halves of a surrogate pair moves so the whole character stays out, so no lone surrogate (which
 * models and JSON encoders turn into garbage or reject) is ever made.
 */

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** `i` moved back when it falls inside a surrogate pair of `text`, so `text.slice(0, i)` ends on a whole character. */
export function cutBefore(text: string, i: number): number {
  return i > 0 && i < text.length && isHigh(text.charCodeAt(i - 1)) && isLow(text.charCodeAt(i)) ? i - 1 : i;
}

/** `i` moved on when it falls inside a surrogate pair of `text`, so `text.slice(i)` starts on a whole character. */
export function cutAfter(text: string, i: number): number {
  return i > 0 && i < text.length && isHigh(text.charCodeAt(i - 1)) && isLow(text.charCodeAt(i)) ? i + 1 : i;
}

/** At most `max` UTF-16 units of the start of `text`, ending in `ellipsis` when it was cut. */
export function clip(text: string, max: number, ellipsis = "..."): string {
  if (text.length <= max) return text;
  return text.slice(0, cutBefore(text, Math.max(0, max - ellipsis.length))) + ellipsis;
}

/** The longest end of `text` within `budget` tokens, starting on a whole character. */
export function keepEnd(text: string, budget: number, count: (t: string) => number): string {
  if (count(text) <= budget) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (count(text.slice(mid)) <= budget) hi = mid;
    else lo = mid + 1;
  }
  return text.slice(cutAfter(text, lo));
}
