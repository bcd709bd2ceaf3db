// Real processes on one thread: two `autograms chat` processes at once (one refused, one queued),
// and processes killed with SIGKILL in the middle of turns. After every kill the thread is at a
// turn the process finished or the one it was committing, never in between, and it goes on.
import { beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { openStore } from "@autograms/store";
import { autograms, bin, cliTestFolder, replies } from "../cli/support/run-cli.js";
import { slowModelAndPostgres, writeEchoGraph, type SlowModel } from "./support/slow-model.js";
import type { PostgresServer } from "./support/postgres-server.mjs";

// Each test runs the command several times; a busy two-core machine may take seconds for each.
const CLI_TIMEOUT = 180_000;
const folder = cliTestFolder("autograms-store-processes-");
const servers = slowModelAndPostgres();
let model: SlowModel;
let postgres: PostgresServer;
beforeAll(() => {
  [model, postgres] = [servers.model(), servers.postgres()];
});

interface Running {
  child: ChildProcess;
  stdout: () => string;
  done: Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>;
}

function chat(args: string[], input: string, keepOpen = false): Running {
  const child = spawn(process.execPath, [bin, "chat", ...args], {
    cwd: folder(),
    env: { ...process.env, ...model.env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  child.stdin!.on("error", () => {});
  child.stdin!.write(input);
  if (!keepOpen) child.stdin!.end();
  const done = new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, stdout: () => stdout, done };
}

describe("several processes on one thread", { timeout: CLI_TIMEOUT }, () => {
  it("refuses a second process while a turn runs, queues one with --busy enqueue, and loses no turn", async () => {
    const store = `sqlite:${join(folder(), "two.db")}`;
    const graph = writeEchoGraph(folder());
    const args = [graph, ...model.flags, "--store", store, "--thread", "shared"];
    const a = chat(args, "a slow message\n");
    await model.held(); // A is in the middle of its turn, holding the thread

    const refused = await autograms(["chat", ...args], { input: "from B\n", env: model.env });
    expect(refused.code).toBe(1);
    const lines = refused.stderr.trim().split("\n");
    expect(lines.at(-1)).toMatch(
      /^autograms chat: thread shared is busy: a run by pid \d+ on .* is in progress \(started \d+ s ago\); try again, or wait for it with --busy enqueue$/,
    );
    expect(refused.stderr).not.toMatch(/\n\s+at /); // no stack trace

    const queued = chat([...args, "--busy", "enqueue"], "from C\n");
    await new Promise((r) => setTimeout(r, 300));
    model.release();
    const [ra, rc] = await Promise.all([a.done, queued.done]);
    expect(ra.code).toBe(0);
    expect(rc.code).toBe(0);
    expect(replies(rc.stdout).at(-1)).toBe("echo: from C");

    const shown = JSON.parse((await autograms(["threads", "show", "shared", "--json", "--store", store])).stdout);
    expect(shown.turns.map((t: { user: string | null }) => t.user)).toEqual([null, "a slow message", "from C"]);
  });
});

describe("kill -9", { timeout: CLI_TIMEOUT }, () => {
  it.each(["SQLite", "Postgres"])(
    "mid-turn (%s): the thread stays at its last turn, and the dead process's lease lapses within 10 s",
    async (kind) => {
      const url = kind === "SQLite" ? `sqlite:${join(folder(), "killed.db")}` : await postgres.newDatabase();
      const graph = writeEchoGraph(folder());
      const args = [graph, ...model.flags, "--store", url, "--thread", "k"];
      expect((await autograms(["chat", ...args], { input: "first\n", env: model.env })).code).toBe(0);
      model.reset();
      const victim = chat(args, "a slow one\n");
      await model.held();
      victim.child.kill("SIGKILL");
      await victim.done;

      const store = await openStore(url);
      try {
        const info = (await store.thread("k"))!;
        expect(info.version).toBe(2);
        expect(info.running).not.toBeNull();
        expect(info.running!.expiresAt - Date.now()).toBeLessThanOrEqual(10_000);
        expect((await store.load("k")).memory!.turn).toBe(2);
        // Meanwhile the thread is busy: for this store, and for a new process that asks before the
        // lease lapses (on a machine so loaded that starting the process takes longer than the
        // lease, the process may find it lapsed, rightly, and only the store's answer is checked).
        await expect(store.acquire("k")).rejects.toThrow(/busy/);
        const busy = await autograms(["chat", ...args], { input: "too soon\n", env: model.env });
        if (Date.now() < info.running!.expiresAt) expect(busy.stderr).toContain("thread k is busy");
        // 10 s later (the store's clock moved on) the thread is free and goes on from its last turn.
        const later = await openStore(url, { now: () => Date.now() + 10_001 });
        try {
          expect((await later.thread("k"))!.running).toBeNull();
          await later.release(await later.acquire("k"));
        } finally {
          await later.close();
        }
      } finally {
        await store.close();
      }
    },
  );

  it("SIGTERM (or Ctrl-C) mid-turn: the turn is dropped and the thread released at once", async () => {
    const url = `sqlite:${join(folder(), "stopped.db")}`;
    const graph = writeEchoGraph(folder());
    const args = [graph, ...model.flags, "--store", url, "--thread", "s"];
    model.reset();
    const victim = chat(args, "a slow one\n");
    await model.held();
    victim.child.kill("SIGTERM");
    expect((await victim.done).code).toBe(143);
    const store = await openStore(url);
    try {
      expect(await store.thread("s")).toMatchObject({ version: 1, running: null });
    } finally {
      await store.close();
    }
  });

  it("at random moments of a conversation: the thread holds the turns the process printed, or one more", async () => {
    const url = `sqlite:${join(folder(), "random.db")}`;
    const graph = writeEchoGraph(folder());
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i}`).join("\n") + "\n";
    const store = await openStore(url);
    try {
      for (let round = 0; round < 3; round++) {
        const id = `random-${round}`;
        const victim = chat([graph, "--offline", "--store", url, "--thread", id], lines, true);
        // Wait for some turns, then kill at a moment that varies from round to round.
        while (replies(victim.stdout()).length < 3) await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, 37 * round));
        victim.child.kill("SIGKILL");
        const { stdout } = await victim.done;
        const printed = replies(stdout).length;
        const info = (await store.thread(id))!;
        expect([printed, printed + 1]).toContain(info.version);
        const turns = await store.turns(id);
        expect(turns.map((t) => t.seq)).toEqual(Array.from({ length: info.version }, (_, i) => i + 1));
        const { memory } = await store.load(id);
        expect(memory!.turn).toBe(info.version);
      }
    } finally {
      await store.close();
    }
  });
});
