// /readyz checks that the store can write, not only that it answers: a SQLite file damaged under
// a running server, or gone, or a disk that is full, is 503 with why (never where the store is),
// while plain reads may still be answered from the connection's cache. What the agent needs (the
// app's readiness: its MCP servers) being down is 503 too.
import { afterAll, describe, expect, it, vi } from "vitest";
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { compile } from "@autograms/compiler";
import { TurnPool } from "@autograms/server";
import { startTestServer, tempFolder, type TestServer } from "./support/harness.js";

const folder = tempFolder("autograms-readiness-");
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => {});
  folder.remove();
});

const readyz = async (s: TestServer) => {
  const res = await fetch(`${s.url}/readyz`);
  return [res.status, await res.json()];
};

describe("/readyz", () => {
  it("stays ready while a worker the pool retired is replaced: the others take the turns", async () => {
    const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/pool-bounds/${name}`, import.meta.url));
    const { graph } = compile(readFileSync(fixture("agent.ts"), "utf8"), { fileName: fixture("agent.ts") });
    // Turns that never end and ignore being stopped: the pool fails one past its wall-clock bound and retires its worker.
    const pool = new TurnPool({
      script: fixture("worker.mjs"),
      size: 2,
      budgets: { wallMs: 200 },
      data: { graph, stubborn: true },
    });
    await pool.ready();
    const s = await startTestServer(folder.path, { workers: pool });
    servers.push(s);
    const serving = () => (pool as unknown as { slots: unknown[] }).slots.length;
    const turn = {
      threadId: "a",
      text: "who?",
      memory: null,
      signal: new AbortController().signal,
      onStep: () => {},
      onText: () => {},
    };
    const failed = await pool.play(turn).catch((err: { code?: string; message?: string }) => err);
    expect(failed).toMatchObject({ code: "turn_timeout", message: expect.stringMatching(/is replaced/) });
    // Its replacement is starting: one worker serves meanwhile, and the server is ready.
    expect(serving()).toBe(1);
    expect(pool.unready()).toBeUndefined();
    expect(await readyz(s)).toEqual([200, { status: "ready", runs: 0 }]);
    const deadline = Date.now() + 10_000;
    while (serving() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(serving()).toBe(2);
    expect(await readyz(s)).toEqual([200, { status: "ready", runs: 0 }]);
  });

  it("is 503 dependency_down while the app's readiness says something the agent needs is down", async () => {
    let down: string | undefined = "MCP server 'shop' is down";
    const s = await startTestServer(folder.path, { readiness: () => down });
    servers.push(s);
    expect(await readyz(s)).toEqual([503, { status: "dependency_down", why: "MCP server 'shop' is down" }]);
    down = undefined;
    expect(await readyz(s)).toEqual([200, { status: "ready", runs: 0 }]);
  });

  it("is 503 with why once the SQLite file is damaged or gone under the running server", async () => {
    const damaged = join(folder.path, "damaged.db");
    const s = await startTestServer(folder.path, { storeUrl: `sqlite:${damaged}` });
    servers.push(s);
    expect(await readyz(s)).toEqual([200, { status: "ready", runs: 0 }]);
    for (const f of [damaged, `${damaged}-wal`])
      if (existsSync(f)) writeFileSync(f, Buffer.alloc(statSync(f).size, 0x5a));
    expect(await readyz(s)).toEqual([
      503,
      { status: "store_unavailable", why: "the database file is damaged (it is not a SQLite database)" },
    ]);

    const gone = join(folder.path, "gone.db");
    const t = await startTestServer(folder.path, { storeUrl: `sqlite:${gone}` });
    servers.push(t);
    for (const f of [gone, `${gone}-wal`, `${gone}-shm`]) rmSync(f, { force: true });
    expect(await readyz(t)).toEqual([503, { status: "store_unavailable", why: "the database file cannot be opened" }]);
  });

  it("is 503 once a request met damage in pages its probe does not read (a corrupted copy of the file)", async () => {
    const original = join(folder.path, "original.db");
    const s = await startTestServer(folder.path, { storeUrl: `sqlite:${original}` });
    await s.close();
    // Pages of threads, written at once (a commit each would take seconds).
    const db = new Database(original);
    db.exec(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO threads (id, created_at, updated_at) SELECT 'thread-' || i || '-' || hex(randomblob(40)), i, i FROM n",
    );
    db.close();
    // A copy whose middle pages are garbage: the schema and the probe's table are in the first ones.
    const copy = join(folder.path, "copy.db");
    copyFileSync(original, copy);
    const bytes = readFileSync(copy);
    const page = 4096;
    const pages = bytes.length / page;
    bytes.fill(0x5a, Math.floor(pages / 3) * page, Math.floor((2 * pages) / 3) * page);
    writeFileSync(copy, bytes);
    const damaged = await startTestServer(folder.path, { storeUrl: `sqlite:${copy}` });
    servers.push(damaged);
    // The server logs the 500's error (SQLITE_CORRUPT) for its operator.
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const listed = await fetch(`${damaged.url}/api/threads?limit=1000`);
    const calls = logged.mock.calls.length;
    logged.mockRestore();
    expect([listed.status, calls]).toEqual([500, 1]);
    const [status, body] = await readyz(damaged);
    expect([status, body.status]).toEqual([503, "store_unavailable"]);
    expect(body.why).toMatch(/^the database file is damaged: a request met SQLITE_CORRUPT.* then restart the server$/);
    expect(body.why).not.toContain(folder.path);
  });

  // A small file system of its own to fill: mounting one needs root.
  const asRoot = userInfo().uid === 0;
  (asRoot ? it : it.skip)(
    `is 503 when the disk is full${asRoot ? "" : " (skipped: mounting a small tmpfs needs root)"}`,
    async () => {
      const disk = join(folder.path, "small-disk");
      mkdirSync(disk);
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", disk]);
      try {
        const s = await startTestServer(folder.path, { storeUrl: `sqlite:${join(disk, "threads.db")}` });
        servers.push(s);
        expect((await readyz(s))[0]).toBe(200);
        // The rest of the disk taken by another file.
        try {
          for (let i = 0; ; i++) writeFileSync(join(disk, `filler-${i}`), Buffer.alloc(64 * 1024));
        } catch {
          // ENOSPC: full
        }
        expect(await readyz(s)).toEqual([503, { status: "store_unavailable", why: "the disk is full" }]);
        await s.close();
      } finally {
        execFileSync("umount", ["-l", disk]);
      }
    },
  );
});
