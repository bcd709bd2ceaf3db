// The shared store suite against SQLite (better-sqlite3): a new database file per test.
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { openStore } from "@autograms/store";
import { storeSuite } from "@autograms/store/testing";

const dir = mkdtempSync(join(tmpdir(), "autograms-sqlite-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

storeSuite(
  "SQLite",
  {
    async fresh() {
      const path = join(dir, `t${++n}.db`);
      const url = `sqlite:${path}`;
      return {
        url,
        open: (options) => openStore(url, options),
        async query(sql) {
          const db = new Database(path);
          try {
            const s = db.prepare(sql);
            return s.reader ? (s.all() as Record<string, unknown>[]) : (s.run(), []);
          } finally {
            db.close();
          }
        },
        async close() {},
      };
    },
  },
  { describe, it, expect },
);

describe("the SQLite store among other work of the process", () => {
  it("lets the event loop run between its statements (better-sqlite3 is synchronous)", async () => {
    // Without a yield between queued statements, 200 of them ran as one stretch of microtasks:
    // a server read no new request until all were done, and a burst of clients saw seconds of
    // unfair waits (docs/serving.md#figures).
    const store = await openStore(`sqlite:${join(dir, "fair.db")}`);
    try {
      let done = 0;
      const calls = Array.from({ length: 200 }, () => store.thread("t").then(() => done++));
      const doneWhenTheLoopRan = await new Promise<number>((resolve) => setImmediate(() => resolve(done)));
      await Promise.all(calls);
      expect(done).toBe(200);
      expect(doneWhenTheLoopRan).toBeLessThan(10);
    } finally {
      await store.close();
    }
  });
});
