import { StoreError } from "./errors.js";
import { PostgresDriver } from "./postgres/driver.js";
import { PostgresStore } from "./postgres/store.js";
import { SqliteDriver } from "./sqlite/driver.js";
import { SqliteStore } from "./sqlite/store.js";
import { checkStoreOptions, definedOnly } from "./arguments.js";
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
    const given = { ...location.options, ...definedOnly(options) };
    const store =
      location.kind === "sqlite"
        ? new SqliteStore(new SqliteDriver(location.path), where, given)
        : new PostgresStore(new PostgresDriver(location.url), where, given);
    return await store.migrated();
  } catch (err) {
    if (err instanceof StoreError && err.code !== "unavailable") throw err;
    throw new StoreError(
      "unavailable",
      `cannot open the store ${where}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
