// For a test file: a temporary folder and a Postgres server for all its tests, gone after them,
// and a new store of each kind to open in a test.
import { afterAll, beforeAll } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store, type StoreOptions } from "@autograms/store";
import { startPostgres, type PostgresServer } from "./postgres-server.mjs";

export function bothStores(prefix: string): Record<"SQLite" | "Postgres", (options?: StoreOptions) => Promise<Store>> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let postgres: PostgresServer;
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(async () => {
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    SQLite: (options) => openStore(`sqlite:${join(dir, `${Math.random().toString(36).slice(2)}.db`)}`, options),
    Postgres: async (options) => openStore(await postgres.newDatabase(), options),
  };
}
