/**
 * Listeners by key for one database in this process (what a driver's `watch` registers and its
 * notifications wake), each also woken every `pollMs`: the fallback for what a notification cannot
 * reach (another SQLite process) or did not (a Postgres listening connection that dropped).
 */
export class Watchers {
  private readonly byKey = new Map<string, Set<() => void>>();

  add(key: string, listener: () => void, pollMs: number): () => void {
    let set = this.byKey.get(key);
    if (!set) this.byKey.set(key, (set = new Set()));
    // Each watch its own function, so one listener watched twice is stopped twice.
    const entry = () => listener();
    set.add(entry);
    const timer = setInterval(entry, pollMs);
    timer.unref();
    return () => {
      clearInterval(timer);
      set.delete(entry);
      if (set.size === 0 && this.byKey.get(key) === set) this.byKey.delete(key);
    };
  }

  wake(key: string): void {
    for (const listener of [...(this.byKey.get(key) ?? [])]) listener();
  }
}
