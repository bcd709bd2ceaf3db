/**
 * The model settings chosen for threads (`PUT /api/threads/:id/settings`), used by the runs that
 * start on them from then on. Kept by this process: each turn records the settings it ran with
 * (in its trace), but a restart, or another process of the same store, starts the threads again
 * with the server's own model.
 */
import type { ModelSettings } from "@autograms/runtime";

/** Threads whose settings are kept; the least recently set go first past it. */
const MAX_THREADS = 10_000;

export class ThreadSettings {
  private readonly chosen = new Map<string, ModelSettings>();

  get(threadId: string): ModelSettings | undefined {
    return this.chosen.get(threadId);
  }

  /** `settings` for the thread's next runs; none given (`{}`): the server's own again. */
  set(threadId: string, settings: ModelSettings): void {
    this.chosen.delete(threadId);
    if (Object.keys(settings).length === 0) return;
    if (this.chosen.size >= MAX_THREADS) this.chosen.delete(this.chosen.keys().next().value!);
    this.chosen.set(threadId, settings);
  }

  delete(threadId: string): void {
    this.chosen.delete(threadId);
  }
}
