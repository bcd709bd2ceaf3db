/**
 * Keeps the leases a process holds on one store alive: every tick, one statement renews all of
 * them (Store.renewAll), not one statement per lease. A process holding 250 threads with 2 s
 * leases otherwise sent 375 renewals a second, far more statements than its turns made, and the
 * slower its turns got under load (the longer each lease was held) the more of them it sent.
 */
import type { Lease, Store } from "../types.js";

interface Kept {
  lease: Lease;
  onLost: () => void;
}

class LeaseKeeper {
  private readonly kept = new Map<string, Kept>();
  private timer: ReturnType<typeof setInterval> | null = null;
  /**
   * When the renewal under way began: the next ticks wait for it rather than pile more on the
   * database, but not past a lease's lifetime (a statement that never returns, on a connection
   * that went silent, must not stop every later renewal of the process).
   */
  private renewingSince: number | null = null;

  constructor(
    private readonly store: Store,
    private readonly ttlMs: number,
  ) {}

  private get everyMs(): number {
    return Math.max(50, this.ttlMs / 3);
  }

  /** Keeps `lease` until the function returned is called; `onLost` once it turns out lost. */
  keep(lease: Lease, onLost: () => void): () => void {
    this.kept.set(lease.token, { lease, onLost });
    this.timer ??= setInterval(() => void this.tick(), this.everyMs);
    return () => {
      this.kept.delete(lease.token);
      if (this.kept.size === 0 && this.timer !== null) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  private async tick(): Promise<void> {
    if (this.kept.size === 0) return;
    if (this.renewingSince !== null && Date.now() - this.renewingSince < this.ttlMs) return;
    const since = Date.now();
    this.renewingSince = since;
    try {
      const asked = [...this.kept.values()];
      const held = await this.store.renewAll(asked.map((k) => k.lease));
      // Let go of meanwhile (committed, released): not lost, only no longer kept.
      for (const k of asked)
        if (!held.has(k.lease.token) && this.kept.get(k.lease.token) === k) {
          this.kept.delete(k.lease.token);
          k.onLost();
        }
    } catch {
      // The database did not answer: the next tick asks again (a lease lapses only after its lifetime).
    } finally {
      if (this.renewingSince === since) this.renewingSince = null;
    }
  }
}

const keepers = new WeakMap<Store, Map<number, LeaseKeeper>>();

/**
 * Renews `lease` every third of its lifetime, together with every other lease of this store and
 * lifetime, until the function returned is called; calls `onLost` if it was lost (taken over, or
 * lapsed before a renewal reached the database).
 */
export function keepLease(store: Store, lease: Lease, onLost: () => void): () => void {
  let byLifetime = keepers.get(store);
  if (!byLifetime) keepers.set(store, (byLifetime = new Map()));
  let keeper = byLifetime.get(lease.ttlMs);
  if (!keeper) byLifetime.set(lease.ttlMs, (keeper = new LeaseKeeper(store, lease.ttlMs)));
  return keeper.keep(lease, onLost);
}
