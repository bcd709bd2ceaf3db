/** mulberry32: a small, fast generator of numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of conversation `index` of a batch: a run repeats conversation by conversation. */
export function conversationSeed(batchSeed: number, index: number): number {
  return (Math.imul(batchSeed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(index, 0xc2b2ae35)) >>> 0;
}
