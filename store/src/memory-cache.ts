import type { Memory } from "@autograms/runtime";
import { memoryBytes } from "./memory-bytes.js";

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
 * It keeps at most `size` threads and `maxBytes` bytes of memory (memory-bytes.ts): the least
 * recently used go first, and a memory larger than the bound alone is not kept.
 */
export class MemoryCache {
  private readonly entries = new Map<string, { memory: Memory; bytes: number }>();
  private held = 0;

  constructor(
    private readonly size: number,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  /** About how many bytes of memory it keeps. */
  get bytes(): number {
    return this.held;
  }

  /** The thread's memory if it is the one whose checksum the row holds. */
  get(threadId: string, checksum: string | null): Memory | undefined {
    const entry = this.entries.get(threadId);
    if (entry === undefined) return undefined;
    if (checksum === null || entry.memory.checksum !== checksum) {
      this.forget(threadId);
      return undefined;
    }
    // Map order is the recency order: used now, it goes to the end.
    this.entries.delete(threadId);
    this.entries.set(threadId, entry);
    return entry.memory;
  }

  /**
   * Keeps what a commit wrote. Only memory that cannot change afterwards (frozen, as the runtime
   * hands it out) is kept: a caller's own object could be edited after the commit.
   */
  set(threadId: string, memory: Memory): void {
    this.forget(threadId);
    if (this.size <= 0 || !Object.isFrozen(memory) || !Object.isFrozen(memory.stack)) return;
    const bytes = memoryBytes(memory);
    if (bytes > this.maxBytes) return;
    this.entries.set(threadId, { memory, bytes });
    this.held += bytes;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.size && this.held <= this.maxBytes) break;
      this.forget(oldest);
    }
  }

  forget(threadId: string): void {
    const entry = this.entries.get(threadId);
    if (entry === undefined) return;
    this.entries.delete(threadId);
    this.held -= entry.bytes;
  }
}
