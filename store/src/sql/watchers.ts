/**
 * Listeners by key for one database in this process (what a driver's `watch` registers and its
 * notifications wake), woken together every `pollMs` as well: the fallback for what a
 * notification cannot reach (another SQLite process) or did not (a Postgres listening connection
 * that dropped). One timer per key, however many listen: a run's 1,500 followers poll as one.
 */
export class Watchers {
  private readonly byKey = new Map<string, { listeners: Set<() => void>; timer: NodeJS.Timeout }>();

  add(key: string, listener: () => void, pollMs: number): () => void {
    let watched = this.byKey.get(key);
    if (!watched) {
      const timer = setInterval(() => this.wake(key), pollMs);
      timer.unref();
      this.byKey.set(key, (watched = { listeners: new Set(), timer }));
    }
    // Each watch its own function, so one listener watched twice is stopped twice.
    const entry = () => listener();
    const { listeners } = watched;
    listeners.add(entry);
    return () => {
      listeners.delete(entry);
      const now = this.byKey.get(key);
      if (listeners.size === 0 && now?.listeners === listeners) {
        clearInterval(now.timer);
        this.byKey.delete(key);
      }
    };
  }

  wake(key: string): void {
    for (const listener of [...(this.byKey.get(key)?.listeners ?? [])]) listener();
  }
}
