// The memory a store (and each worker) keeps of the threads it served last: bounded by bytes as
// well as by count, so a few threads of large memory cannot fill the process's heap.
import { describe, expect, it } from "vitest";
import type { Memory } from "@autograms/runtime";
import { MemoryCache } from "@autograms/store";
import { memoryBytes } from "../../store/src/memory-cache.js";

/** A frozen memory holding about `mb` MiB of text in a variable, as sealed memory is frozen. */
function memory(checksum: string, mb: number): Memory {
  const deepFreeze = <T>(value: T): T => {
    if (value !== null && typeof value === "object") {
      for (const v of Object.values(value)) deepFreeze(v);
      Object.freeze(value);
    }
    return value;
  };
  const text = `${checksum}:${"x".repeat(mb * 512 * 1024)}`;
  return deepFreeze({ checksum, turn: 1, stack: [{ vars: { text }, turns: [] }] } as unknown as Memory);
}

describe("a memory cache", () => {
  it("keeps at most its bound in bytes: 22 threads of 2.8 MiB under a 10 MiB bound", () => {
    const cache = new MemoryCache(100, 10 * 1024 * 1024);
    const memories = Array.from({ length: 22 }, (_, i) => memory(`m${i}`, 2.8));
    for (const [i, m] of memories.entries()) {
      cache.set(`t${i}`, m);
      expect(cache.bytes).toBeLessThanOrEqual(10 * 1024 * 1024);
    }
    // The most recent ones are kept, the oldest went first.
    expect(cache.get("t21", "m21")).toBe(memories[21]);
    expect(cache.get("t0", "m0")).toBeUndefined();
    expect(cache.bytes).toBeGreaterThan(2 * 2.8 * 1024 * 1024);
    // A memory larger than the bound alone is not kept, and what was kept stays.
    cache.set("big", memory("big", 11));
    expect(cache.get("big", "big")).toBeUndefined();
    expect(cache.get("t21", "m21")).toBe(memories[21]);
    // Forgotten, a thread's bytes are given back.
    cache.forget("t21");
    cache.forget("t20");
    cache.forget("t19");
    expect(cache.bytes).toBe(0);
  });

  it("measures a memory by its text, and a frozen object once", () => {
    const m = memory("a", 1);
    const bytes = memoryBytes(m);
    // 1 MiB of text: two bytes a UTF-16 unit, and a little for the objects around it.
    expect(bytes).toBeGreaterThan(1024 * 1024);
    expect(bytes).toBeLessThan(1024 * 1024 + 1024);
    const start = performance.now();
    for (let i = 0; i < 10_000; i++) memoryBytes(m);
    expect(performance.now() - start).toBeLessThan(100);
  });
});
