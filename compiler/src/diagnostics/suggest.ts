/** `; did you mean 'x'?` for the closest of `names` to a misspelt `word`, or "" when none is close. */
export function didYouMean(word: string, names: Iterable<string>): string {
  const best = closest(word, names);
  return best === undefined ? "" : `; did you mean '${best}'?`;
}

/**
 * The one of `names` a misspelt `word` was most likely meant to be, if any is within `maxDistance`
 * edits (by default a third of the word, at least 2); the first of equally close ones.
 */
export function closest(
  word: string,
  names: Iterable<string>,
  maxDistance = Math.max(2, Math.floor(word.length / 3)),
): string | undefined {
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const name of names) {
    const d = distance(word, name, bestDistance);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/** Edit distance, giving up (returning `limit`) once it is clear the words are not close. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return Math.min(previous[b.length]!, limit);
}
