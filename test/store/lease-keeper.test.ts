// The leases a process holds are renewed together: one statement a tick for all of them, however
// many turns are under way, and a lease found lost aborts its own turn alone. On SQLite and on
// Postgres.
import { describe, it, vi } from "vitest";
import { acquireTurn, type Lease, type Store } from "@autograms/store";
import { keepLease } from "../../store/src/turns/lease-keeper.js";
import { bothStores } from "./support/both-stores.js";
import { recordStatements, type Driver } from "./support/statements.js";

const stores = bothStores("autograms-lease-keeper-");
const RENEWAL = /UPDATE threads SET lease_expires =/;

// Every test here mostly waits (past a lease's lifetime, for a keeper's tick, on transactions that
// sleep in Postgres), so they wait side by side (describe.concurrent), each on a store of its own:
// a keeper is per store, and the file takes as long as its longest test, not their sum.
for (const [name, open] of Object.entries(stores)) {
  describe.concurrent(`the leases of held turns on ${name}`, () => {
    it("are renewed by one statement a tick for all of them, past their lifetime", async ({ expect }) => {
      const store = await open();
      try {
        const recorded = recordStatements(store);
        const turns = await Promise.all(
          Array.from({ length: 40 }, (_, i) => acquireTurn(store, `k${i}`, "hi", { ttlMs: 4000 })),
        );
        // Past their lifetime (which leaves room for a busy machine, 40 takes may take a second):
        await new Promise((r) => setTimeout(r, 4500));
        const renewals = recorded.statements.filter((s) => RENEWAL.test(s.sql)).length;
        // A tick every 1,333 ms: at most 4 statements (fewer on a busy machine: a tick waits for the
        // renewal before it), where a renewal per lease made about 135.
        expect(renewals).toBeGreaterThanOrEqual(1);
        expect(renewals).toBeLessThanOrEqual(6);
        for (const t of turns) expect(t.held!.lost.aborted).toBe(false);
        const running = await Promise.all(turns.map((t) => store.thread(t.held!.lease.threadId)));
        for (const info of running) expect(info!.running!.expiresAt).toBeGreaterThan(Date.now());
        await Promise.all(turns.map((t) => t.held!.release()));
        // Nothing held, nothing renewed.
        recorded.clear();
        await new Promise((r) => setTimeout(r, 700));
        expect(recorded.statements.filter((s) => RENEWAL.test(s.sql))).toEqual([]);
      } finally {
        await store.close();
      }
    });

    it("aborts only the turn whose lease was taken over, and keeps the others", async ({ expect }) => {
      const store = await open();
      try {
        const turns = await Promise.all(["a", "b", "c"].map((id) => acquireTurn(store, id, "hi", { ttlMs: 1500 })));
        const b = turns[1]!.held!;
        // Another process's release of the lease it found lapsed, then its own take: b's is gone.
        await store.release(b.lease);
        const other = await store.acquire("b", { owner: "another process" });
        // Found at the next tick (every 500 ms).
        await vi.waitFor(() => expect(b.lost.aborted).toBe(true), { timeout: 3000, interval: 50 });
        expect(b.lost.reason).toMatchObject({ code: "lease_lost" });
        expect(turns[0]!.held!.lost.aborted).toBe(false);
        expect(turns[2]!.held!.lost.aborted).toBe(false);
        await store.release(other);
        await Promise.all(turns.map((t) => t.held!.release()));
      } finally {
        await store.close();
      }
    });
  });
}

describe.concurrent("the leases of held turns on Postgres", () => {
  it("are renewed at once while every pooled connection is busy", async ({ expect }) => {
    const store = await stores.Postgres();
    try {
      const lease = await store.acquire("p", { ttlMs: 2000 });
      const db = (store as unknown as { db: Driver }).db;
      // Six transactions of a second each: the pool's four connections are taken, two wait.
      const busy = Array.from({ length: 6 }, () => db.transaction((tx) => tx.all("SELECT pg_sleep(1)")));
      await new Promise((r) => setTimeout(r, 100));
      const start = performance.now();
      expect(await store.renewAll([lease])).toEqual(new Set([lease.token]));
      expect(performance.now() - start).toBeLessThan(700);
      await Promise.all(busy);
      await store.release(lease);
    } finally {
      await store.close();
    }
  });

  it("are renewed past a thread whose row a transaction holds, which counts as held while unlapsed", async ({
    expect,
  }) => {
    const store = await stores.Postgres();
    try {
      const [locked, free] = await Promise.all(["locked", "free"].map((id) => store.acquire(id, { ttlMs: 2000 })));
      // As a commit under way holds its thread's row until it ends.
      const holding = await holdRow(store, "locked", 1.5);
      const before = (await store.thread("free"))!.running!.expiresAt;
      const start = performance.now();
      expect(await store.renewAll([locked!, free!])).toEqual(new Set([locked!.token, free!.token]));
      expect(performance.now() - start).toBeLessThan(700);
      expect((await store.thread("free"))!.running!.expiresAt).toBeGreaterThan(before);
      await holding.ended;
      // Not held once lapsed, locked or not.
      const lapsed = await store.acquire("lapsed", { ttlMs: 100 });
      await new Promise((r) => setTimeout(r, 200));
      const locking = await holdRow(store, "lapsed", 0.5);
      expect(await store.renewAll([lapsed, free!])).toEqual(new Set([free!.token]));
      await locking.ended;
      for (const l of [locked!, free!]) await store.release(l);
    } finally {
      await store.close();
    }
  });
});

/**
 * A transaction that locks thread `id`'s row for `seconds` (once it has, this resolves with the
 * transaction's end).
 */
async function holdRow(store: Store, id: string, seconds: number): Promise<{ ended: Promise<void> }> {
  const db = (store as unknown as { db: Driver }).db;
  let locked!: () => void;
  const taken = new Promise<void>((r) => (locked = r));
  const ended = db.transaction(async (tx) => {
    await tx.all("SELECT id FROM threads WHERE id = ? FOR UPDATE", [id]);
    locked();
    await tx.all("SELECT pg_sleep(?)", [seconds]);
  });
  await Promise.race([taken, ended]);
  return { ended };
}

describe.concurrent("the lease writes of a process on Postgres", () => {
  it("renew while a release waits for a row another transaction holds", async ({ expect }) => {
    const store = await stores.Postgres();
    try {
      const [waiting, kept] = await Promise.all(["waiting", "kept"].map((id) => store.acquire(id, { ttlMs: 2000 })));
      const holding = await holdRow(store, "waiting", 1.5);
      const releasing = store.release(waiting!);
      await new Promise((r) => setTimeout(r, 100));
      const start = performance.now();
      expect(await store.renewAll([kept!])).toEqual(new Set([kept!.token]));
      expect(performance.now() - start).toBeLessThan(700);
      await Promise.all([holding.ended, releasing]);
      expect((await store.thread("waiting"))!.running).toBeNull();
      await store.release(kept!);
    } finally {
      await store.close();
    }
  });
});

describe.concurrent("the lease keeper, on a database that stops answering", () => {
  const lease = (token: string): Lease => ({
    threadId: `t-${token}`,
    token,
    owner: "test",
    version: 0,
    messageId: null,
    ttlMs: 150,
  });

  it("asks again once a renewal has not returned within a lease's lifetime, and reports what was lost", async ({
    expect,
  }) => {
    let calls = 0;
    // The first renewal never returns (a connection gone silent); the next ones answer, without b.
    const store = {
      renewAll: (leases: readonly Lease[]) => {
        calls++;
        if (calls === 1) return new Promise<Set<string>>(() => {});
        return Promise.resolve(new Set(leases.map((l) => l.token).filter((t) => t !== "b")));
      },
    } as unknown as Store;
    const lost: string[] = [];
    const letA = keepLease(store, lease("a"), () => lost.push("a"));
    const letB = keepLease(store, lease("b"), () => lost.push("b"));
    await vi.waitFor(() => expect(lost).toEqual(["b"]), { timeout: 2000, interval: 20 });
    const after = calls;
    await new Promise((r) => setTimeout(r, 200));
    expect(calls).toBeGreaterThan(after);
    expect(lost).toEqual(["b"]);
    letA();
    letB();
    const stopped = calls;
    await new Promise((r) => setTimeout(r, 200));
    expect(calls).toBe(stopped);
  });
});
