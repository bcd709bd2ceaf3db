import type { Memory } from "@autograms/runtime";
import { LRUCache } from "lru-cache";

/**
 * The memory this process committed last, per thread, for the threads it served most recently
 * (least recently used first to go). A thread's next turn, in the same process, takes its memory
 * from here instead of rebuilding it from a snapshot and deltas and having the runtime check it
 * whole again: memory the runtime sealed is frozen, and the runtime takes it back unchecked.
 *
 * An entry is used only when the thread's row names the same memory (its checksum, written by
 * every commit): a commit by another process or another store on the same database changes the
 * row, and the memory is then read from the database as usual.
 *
 * It keeps at most `size` threads and `maxBytes` bytes of memory (`memoryBytes`, below): the least
 * recently used go first, and a memory larger than the bound alone is not kept.
 */
export class MemoryCache {
  /** Null when it keeps nothing (`size` 0): lru-cache wants a positive bound. */
  private readonly entries: LRUCache<string, Memory> | null;

  constructor(size: number, maxBytes = Number.POSITIVE_INFINITY) {
    this.entries =
      size <= 0
        ? null
        : new LRUCache<string, Memory>({
            max: size,
            // Unbounded in bytes: sizes are still counted (`bytes`), the count alone evicts.
            maxSize: Number.isFinite(maxBytes) ? maxBytes : Number.MAX_SAFE_INTEGER,
            // lru-cache wants a positive size; an empty memory still takes a little.
            sizeCalculation: (memory) => Math.max(1, memoryBytes(memory)),
          });
  }

  /** About how many bytes of memory it keeps. */
  get bytes(): number {
    return this.entries?.calculatedSize ?? 0;
  }

  /** The thread's memory if it is the one whose checksum the row holds. */
  get(threadId: string, checksum: string | null): Memory | undefined {
    const memory = this.entries?.get(threadId);
    if (memory === undefined) return undefined;
    if (checksum === null || memory.checksum !== checksum) {
      this.forget(threadId);
      return undefined;
    }
    return memory;
  }

  /**
   * Keeps what a commit wrote. Only memory that cannot change afterwards (frozen, as the runtime
   * hands it out) is kept: a caller's own object could be edited after the commit.
   */
  set(threadId: string, memory: Memory): void {
    this.forget(threadId);
    if (!Object.isFrozen(memory) || !Object.isFrozen(memory.stack)) return;
    // One larger than the bound alone is not kept (lru-cache's maxEntrySize is its maxSize).
    this.entries?.set(threadId, memory);
  }

  forget(threadId: string): void {
    this.entries?.delete(threadId);
  }
}

/**
 * About how many bytes a memory takes in the heap, to bound what a cache of memories keeps by size
 * (a count alone let 22 threads of 28 MB each fill a 640 MiB heap). Strings count two bytes a
 * unit (V8 may store them in one), every value and key a few bytes more. Memory is frozen and a
 * turn's memory shares most of its objects with the last turn's, so the size of each frozen
 * object is remembered: measuring a turn's memory walks only what the turn made.
 */
const sizes = new WeakMap<object, number>();

const VALUE = 8;
const OBJECT = 24;

export function memoryBytes(value: unknown): number {
  if (typeof value === "string") return VALUE + 2 * value.length;
  if (value === null || typeof value !== "object") return VALUE;
  const known = sizes.get(value);
  if (known !== undefined) return known;
  let bytes = OBJECT;
  if (Array.isArray(value)) for (const item of value) bytes += memoryBytes(item);
  else for (const key in value) bytes += VALUE + 2 * key.length + memoryBytes((value as Record<string, unknown>)[key]);
  // Only what cannot change may be remembered.
  if (Object.isFrozen(value)) sizes.set(value, bytes);
  return bytes;
}
