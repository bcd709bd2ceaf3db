// Group commit on SQLite: transactions asked for one after another, with nothing queued between
// them, commit together (one COMMIT, one sync of the WAL), each in a savepoint of its own.
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "@autograms/store";
import type { Driver, Sql } from "./support/statements.js";

interface GroupDriver extends Driver {
  fixed: { commit: { run(): unknown } };
}

const dir = mkdtempSync(join(tmpdir(), "autograms-group-commit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let store: Store;
let db: GroupDriver;
let commits: number;
beforeEach(async () => {
  store = await openStore(`sqlite:${join(dir, `${Math.random().toString(36).slice(2)}.db`)}`);
  db = (store as unknown as { db: GroupDriver }).db;
  await db.run("CREATE TABLE scratch (k TEXT PRIMARY KEY)");
  // Counts the COMMITs the driver runs (each a wait for the disk when durable).
  const commit = db.fixed.commit;
  const run = commit.run.bind(commit);
  commits = 0;
  commit.run = () => (commits++, run());
});
afterEach(() => store.close());

const insert = (k: string) => (tx: Sql) => tx.run("INSERT INTO scratch (k) VALUES (?)", [k]).then(() => k);
const keys = async () => (await db.all("SELECT k FROM scratch ORDER BY k")).map((r) => r.k);

describe("SQLite transactions asked for together", () => {
  it("commit once, each giving its own value", async () => {
    const values = await Promise.all(["a", "b", "c", "d", "e"].map((k) => db.transaction(insert(k))));
    expect(values).toEqual(["a", "b", "c", "d", "e"]);
    expect(commits).toBe(1);
    expect(await keys()).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("roll back alone the one that throws, and commit the others", async () => {
    const results = await Promise.allSettled([
      db.transaction(insert("a")),
      db.transaction(async (tx) => {
        await insert("b")(tx);
        throw new Error("changed its mind");
      }),
      // A constraint the database refuses: the same key twice.
      db.transaction(async (tx) => {
        await insert("c")(tx);
        return insert("a")(tx);
      }),
      db.transaction(insert("d")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/changed its mind/);
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(await keys()).toEqual(["a", "d"]);
    expect(commits).toBe(1);
  });

  it("keep the order they were asked in with other statements: one queued between ends the batch", async () => {
    const seen: unknown[] = [];
    await Promise.all([
      db.transaction(insert("a")),
      db.all("SELECT COUNT(*) AS n FROM scratch").then((rows) => seen.push(rows[0]!.n)),
      db.transaction(insert("b")),
      db.transaction(insert("c")),
    ]);
    // The read ran after the first transaction and before the others, as it was asked.
    expect(seen).toEqual([1]);
    expect(commits).toBe(2);
    expect(await keys()).toEqual(["a", "b", "c"]);
  });

  it("do not mix commits that wait for the disk with those that do not", async () => {
    await Promise.all([
      db.transaction(insert("a"), { durable: false }),
      db.transaction(insert("b"), { durable: false }),
      db.transaction(insert("c")),
      db.transaction(insert("d")),
    ]);
    expect(commits).toBe(2);
    expect(await keys()).toEqual(["a", "b", "c", "d"]);
  });

  it("fail together when the transaction ends under them, and commit nothing of the batch", async () => {
    const results = await Promise.allSettled([
      db.transaction(insert("a")),
      // What SQLite does itself on a full disk or an I/O error: the whole transaction rolled back.
      db.transaction(async (tx) => {
        await tx.run("ROLLBACK");
        throw new Error("disk I/O error");
      }),
      db.transaction(insert("c")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    for (const r of results) expect(String((r as PromiseRejectedResult).reason)).toMatch(/disk I\/O error/);
    expect(await keys()).toEqual([]);
    // The connection is usable again.
    await db.transaction(insert("z"));
    expect(await keys()).toEqual(["z"]);
  });
});
