/**
 * Keeps the leases a process holds on one store alive: every tick, one statement renews all of
 * them (Store.renewAll), not one statement per lease. A process holding 250 threads with 2 s
 * leases otherwise sent 375 renewals a second, far more statements than its turns made, and the
 * slower its turns got under load the more of them it sent, until the renewals themselves, waiting
 * in the connection pool's queue behind that load, came too late and the leases lapsed.
 */
import type { Lease, Store } from "../types.js";

interface Kept {
  lease: Lease;
  onLost: () => void;
}

class LeaseKeeper {
  private readonly kept = new Map<string, Kept>();
  private timer: ReturnType<typeof setInterval> | null = null;
  /** A renewal under way: the next tick waits for it rather than piling another on the pool. */
  private renewing = false;

  constructor(
    private readonly store: Store,
    private readonly everyMs: number,
  ) {}

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
    if (this.renewing || this.kept.size === 0) return;
    this.renewing = true;
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
      this.renewing = false;
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
  if (!keeper) byLifetime.set(lease.ttlMs, (keeper = new LeaseKeeper(store, Math.max(50, lease.ttlMs / 3))));
  return keeper.keep(lease, onLost);
}
