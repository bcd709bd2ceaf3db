import { resolve } from "node:path";
import { StoreError } from "./errors.js";
import type { StoreOptions } from "./types.js";

/** The embedded default: a SQLite file in the working directory's `.autograms/` folder. */
export const DEFAULT_STORE_PATH = ".autograms/threads.db";

export type StoreLocation =
  | { kind: "sqlite"; path: string; options: UrlOptions }
  | { kind: "postgres"; url: string; options: UrlOptions };

/** Store options a URL may carry as query parameters (`?lease_ms=5000&poll_ms=20`), for the store, not the database. */
export type UrlOptions = Pick<StoreOptions, "leaseMs" | "pollMs">;

const URL_OPTIONS = { lease_ms: "leaseMs", poll_ms: "pollMs" } as const;

/**
 * Takes the store's own parameters out of a URL's query (the rest, such as libpq's `sslmode`,
 * stays for the database driver): `[url without them, options]`.
 */
function takeOptions(url: string): [string, UrlOptions] {
  const at = url.indexOf("?");
  if (at < 0) return [url, {}];
  const options: UrlOptions = {};
  const kept = url
    .slice(at + 1)
    .split("&")
    .filter((pair) => {
      const [key, value] = pair.split("=", 2) as [string, string | undefined];
      if (!(key in URL_OPTIONS)) return true;
      if (value === undefined || !/^\d{1,9}$/.test(value) || Number(value) === 0) {
        throw new StoreError(
          "bad_url",
          `'${withoutPassword(url)}': ${key} takes a number of milliseconds above 0, not '${value ?? ""}'`,
        );
      }
      options[URL_OPTIONS[key as keyof typeof URL_OPTIONS]] = Number(value);
      return false;
    });
  return [url.slice(0, at) + (kept.length > 0 ? `?${kept.join("&")}` : ""), options];
}

/**
 * `sqlite:PATH` (relative to the working directory; `sqlite:` alone is the default file,
 * `sqlite::memory:` a database that lives as long as the store object) or `postgres://...` /
 * `postgresql://...` (a libpq connection URL).
 */
export function parseStoreUrl(url: string): StoreLocation {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const [rest, options] = takeOptions(url);
    return { kind: "postgres", url: rest, options };
  }
  const m = /^sqlite:(.*)$/s.exec(url);
  if (m) {
    // A SQLite path may hold a '?': only a query made of the store's own parameters is read as one.
    const key = Object.keys(URL_OPTIONS).join("|");
    const query = new RegExp(`\\?((${key})=[^&]*)(&(${key})=[^&]*)*$`).exec(m[1]!);
    const file = query ? m[1]!.slice(0, query.index) : m[1]!;
    const options = query ? takeOptions(query[0])[1] : {};
    const path = file.replace(/^\/\/(?=\/)/, ""); // sqlite:///abs/path, as some tools write it
    if (path === ":memory:") return { kind: "sqlite", path, options };
    return { kind: "sqlite", path: resolve(path === "" ? DEFAULT_STORE_PATH : path), options };
  }
  throw new StoreError(
    "bad_url",
    `'${withoutPassword(url)}' is not a store URL: use sqlite:PATH or postgres://USER@HOST:PORT/DATABASE`,
  );
}

/** The store to use: the one named, else AUTOGRAMS_STORE, else the default SQLite file. */
export function storeUrlFrom(named: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (named !== undefined && named !== "") return named;
  const fromEnv = env.AUTOGRAMS_STORE;
  return fromEnv !== undefined && fromEnv !== "" ? fromEnv : `sqlite:${DEFAULT_STORE_PATH}`;
}

/** Where a store is, for messages: a Postgres URL without its password. */
export function describeLocation(location: StoreLocation): string {
  return location.kind === "sqlite" ? location.path : withoutPassword(location.url);
}

/**
 * Any URL as a message may quote it: the password of its `user:password@` part (or of a
 * `password=` parameter, as libpq also takes it) replaced with `***`.
 */
export function withoutPassword(url: string): string {
  return url.replace(/^([a-z][\w+.-]*:\/\/[^/?#@:]*:)[^/?#@]*@/i, "$1***@").replace(/([?&]password=)[^&#]*/gi, "$1***");
}
