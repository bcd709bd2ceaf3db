// A store URL carries the store's own options (lease_ms, poll_ms) as query parameters: they are
// taken out before the URL reaches the database driver, and options given in code win over them.
import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, parseStoreUrl } from "@autograms/store";

describe("store URL options", () => {
  it("are read from Postgres and SQLite URLs, and the rest of the URL is kept as written", () => {
    expect(
      parseStoreUrl("postgres://app@db:5432/agents?options=-c%20search_path%3Dt1&lease_ms=2000&sslmode=require"),
    ).toEqual({
      kind: "postgres",
      url: "postgres://app@db:5432/agents?options=-c%20search_path%3Dt1&sslmode=require",
      options: { leaseMs: 2000 },
    });
    expect(parseStoreUrl("postgresql://app@db/agents?lease_ms=2000&poll_ms=20")).toMatchObject({
      url: "postgresql://app@db/agents",
      options: { leaseMs: 2000, pollMs: 20 },
    });
    expect(parseStoreUrl("sqlite::memory:?lease_ms=300")).toEqual({
      kind: "sqlite",
      path: ":memory:",
      options: { leaseMs: 300 },
    });
    // A '?' that does not start the store's options is part of the file's name.
    expect(parseStoreUrl("sqlite:/data/what?.db")).toEqual({ kind: "sqlite", path: "/data/what?.db", options: {} });
    expect(parseStoreUrl("sqlite:/data/what?.db?lease_ms=5000")).toEqual({
      kind: "sqlite",
      path: "/data/what?.db",
      options: { leaseMs: 5000 },
    });
  });

  it("refuses a value that is not a number of milliseconds", () => {
    expect(() => parseStoreUrl("postgres://db/agents?lease_ms=soon")).toThrow(
      /lease_ms takes a number of milliseconds above 0, not 'soon'/,
    );
    expect(() => parseStoreUrl("sqlite:t.db?lease_ms=0")).toThrow(expect.objectContaining({ code: "bad_url" }));
  });

  it("never quote a password in an error", async () => {
    const quoted = (url: string) => {
      try {
        parseStoreUrl(url);
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error(`${url} was taken`);
    };
    expect(quoted("postgres://app:s3cret@db/agents?lease_ms=soon")).toContain(
      "'postgres://app:***@db/agents?lease_ms=soon'",
    );
    expect(quoted("mysql://app:s3cret@db/agents")).toMatch(/^'mysql:\/\/app:\*\*\*@db\/agents' is not a store URL/);
    expect(quoted("postgres://db/agents?password=s3cret&poll_ms=x")).not.toContain("s3cret");
    // The database refusing to be reached: the error names where, without the password.
    const refused = await openStore("postgres://app:s3cret@127.0.0.1:1/agents").catch((err: Error) => err);
    expect(refused).toMatchObject({
      code: "unavailable",
      message: expect.stringContaining("postgres://app:***@127.0.0.1:1/agents"),
    });
    expect((refused as Error).message).not.toContain("s3cret");
  });

  it("set the store's lease lifetime; options given to openStore win", async () => {
    const dir = mkdtempSync(join(tmpdir(), "autograms-url-options-"));
    try {
      const fromUrl = await openStore(`sqlite:${join(dir, "a.db")}?lease_ms=1234`);
      const lease = await fromUrl.acquire("t");
      expect(lease.ttlMs).toBe(1234);
      expect((await fromUrl.thread("t"))!.running!.expiresAt - Date.now()).toBeLessThanOrEqual(1234);
      await fromUrl.close();
      const given = await openStore(`sqlite:${join(dir, "a.db")}?lease_ms=1234`, { leaseMs: 4321, pollMs: undefined });
      expect(given.options).toMatchObject({ leaseMs: 4321, pollMs: 50 });
      await given.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("given in code, are refused naming the option when they are not what it takes, before anything is opened", async () => {
    const dir = mkdtempSync(join(tmpdir(), "autograms-url-options-"));
    try {
      const url = `sqlite:${join(dir, "never.db")}`;
      for (const [options, message] of [
        [{ snapshotEvery: "x" }, "snapshotEvery: must be a whole number, at least 1, not 'x'"],
        [{ snapshotBytes: 1.5 }, "snapshotBytes: must be a whole number, at least 1, not 1.5"],
        [{ leaseMs: -5 }, "leaseMs: must be a whole number, at least 1, not -5"],
        [{ pollMs: 0 }, "pollMs: must be a whole number, at least 1, not 0"],
        [{ memoryCache: "a" }, "memoryCache: must be a whole number, at least 0, not 'a'"],
        [{ now: 5 }, "now: must be a function, not 5"],
      ] as const)
        await expect(openStore(url, options as never)).rejects.toMatchObject({ code: "bad_request", message });
      // Nothing was made for a store that was refused.
      expect(existsSync(join(dir, "never.db"))).toBe(false);
      const fine = await openStore(url, { memoryCache: 0, snapshotEvery: 1 });
      expect(fine.options).toMatchObject({ memoryCache: 0, snapshotEvery: 1 });
      await fine.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
