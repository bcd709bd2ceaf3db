import { StoreError } from "./errors.js";
import { PostgresDriver } from "./postgres/driver.js";
import { SqliteDriver } from "./sqlite/driver.js";
import { SqlStore } from "./sql/sql-store.js";
import { checkStoreOptions } from "./arguments.js";
import type { Store, StoreOptions } from "./types.js";
import { describeLocation, parseStoreUrl } from "./url.js";

/**
 * Opens (and migrates, if needed) the store a URL names: `sqlite:PATH` or `postgres://...`. The
 * URL may carry `lease_ms` and `poll_ms`; `options` given here win over them.
 */
export async function openStore(url: string, options: StoreOptions = {}): Promise<Store> {
  checkStoreOptions(options);
  const location = parseStoreUrl(url);
  const where = describeLocation(location);
  try {
    const driver = location.kind === "sqlite" ? new SqliteDriver(location.path) : new PostgresDriver(location.url);
    return await SqlStore.open(driver, where, { ...location.options, ...definedOnly(options) });
  } catch (err) {
    if (err instanceof StoreError && err.code !== "unavailable") throw err;
    throw new StoreError(
      "unavailable",
      `cannot open the store ${where}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

function definedOnly(options: StoreOptions): StoreOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}
