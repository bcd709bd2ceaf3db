import type { Memory } from "@autograms/runtime";

/**
 * The memory this process committed last, per thread, for the threads it served most recently
 * (least recently used first to go). A thread's next turn, in the same process, takes its memory
 * from here instead of rebuilding it from a snapshot and deltas and having the runtime check it
 * whole again: memory the runtime sealed is frozen, and the runtime takes it back unchecked.
 *
 * An entry is used only when the thread's row names the same memory (its checksum, written by
 * every commit): a commit by another process or another store on the same database changes the
 * row, and the memory is then read from the database as usual.
 */
export class MemoryCache {
  private readonly entries = new Map<string, Memory>();

  constructor(private readonly size: number) {}

  /** The thread's memory if it is the one whose checksum the row holds. */
  get(threadId: string, checksum: string | null): Memory | undefined {
    const memory = this.entries.get(threadId);
    if (memory === undefined) return undefined;
    if (checksum === null || memory.checksum !== checksum) {
      this.entries.delete(threadId);
      return undefined;
    }
    // Map order is the recency order: used now, it goes to the end.
    this.entries.delete(threadId);
    this.entries.set(threadId, memory);
    return memory;
  }

  /**
   * Keeps what a commit wrote. Only memory that cannot change afterwards (frozen, as the runtime
   * hands it out) is kept: a caller's own object could be edited after the commit.
   */
  set(threadId: string, memory: Memory): void {
    this.entries.delete(threadId);
    if (this.size <= 0 || !Object.isFrozen(memory) || !Object.isFrozen(memory.stack)) return;
    this.entries.set(threadId, memory);
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
  }

  forget(threadId: string): void {
    this.entries.delete(threadId);
  }
}
