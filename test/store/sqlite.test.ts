// The shared store suite against SQLite (better-sqlite3): a new database file per test.
import { afterAll } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { openStore } from "@autograms/store";
import { storeSuite } from "./store-suite.js";

const dir = mkdtempSync(join(tmpdir(), "autograms-sqlite-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

storeSuite("SQLite", {
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
});
