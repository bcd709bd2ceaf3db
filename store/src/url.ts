import { resolve } from "node:path";
import { StoreError } from "./errors.js";

/** The embedded default: a SQLite file in the working directory's `.autograms/` folder. */
export const DEFAULT_STORE_PATH = ".autograms/threads.db";

export type StoreLocation =
  | { kind: "sqlite"; path: string }
  | { kind: "postgres"; url: string };

/**
 * `sqlite:PATH` (relative to the working directory; `sqlite:` alone is the default file,
 * `sqlite::memory:` a database that lives as long as the store object) or `postgres://...` /
 * `postgresql://...` (a libpq connection URL).
 */
export function parseStoreUrl(url: string): StoreLocation {
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: "postgres", url };
  const m = /^sqlite:(.*)$/s.exec(url);
  if (m) {
    const path = m[1]!.replace(/^\/\/(?=\/)/, ""); // sqlite:///abs/path, as some tools write it
    if (path === ":memory:") return { kind: "sqlite", path };
    return { kind: "sqlite", path: resolve(path === "" ? DEFAULT_STORE_PATH : path) };
  }
  throw new StoreError("bad_url", `'${url}' is not a store URL: use sqlite:PATH or postgres://USER@HOST:PORT/DATABASE`);
}

/** The store to use: the one named, else AUTOGRAMS_STORE, else the default SQLite file. */
export function storeUrlFrom(named: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (named !== undefined && named !== "") return named;
  const fromEnv = env.AUTOGRAMS_STORE;
  return fromEnv !== undefined && fromEnv !== "" ? fromEnv : `sqlite:${DEFAULT_STORE_PATH}`;
}

/** Where a store is, for messages: a Postgres URL without its password. */
export function describeLocation(location: StoreLocation): string {
  if (location.kind === "sqlite") return location.path;
  try {
    const u = new URL(location.url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres";
  }
}
