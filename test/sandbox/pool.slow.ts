import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createSandboxPool, evaluate, SandboxError } from "@autograms/runtime";
import { poolsForTests } from "./pool-worker.js";

/** The child-process pool (its child's script bundled from source: see pool-worker.ts). */

const { pool, paths } = poolsForTests();

/** Limits so loose that only the pool's own watchdogs can stop the evaluation. */
const NO_LIMITS = {
  maxSteps: 1e15,
  maxTimeMs: 1e9,
  maxStringLength: 1e9,
  maxArrayLength: 1e9,
  maxAllocation: 1e15,
};

/** Work for many minutes (1e10 steps) in little memory: only the time watchdog can stop it. */
const ENDLESS =
  "Array.from({ length: 1e5 }).map(() => Array.from({ length: 1e5 }).reduce((sum, _, i) => sum + i, 0)).length";

// The watchdog's times below leave a busy two-core machine seconds for a child's own work (a
// few milliseconds), and the work or waits they must cut short last well beyond them.

describe("createSandboxPool", () => {
  test("evaluates as the in-process evaluator does", async () => {
    const sandbox = pool();
    const variables = { xs: [3, 1, 2], o: { k: 1 } };
    for (const code of [
      "xs.toSorted()",
      "o.k += 1; o",
      "let total = xs.reduce((a, b) => a + b, 0)",
      "`${xs.length} items`",
    ]) {
      expect(await sandbox.evaluate(code, variables)).toEqual(evaluate(code, variables));
    }
    expect(variables).toEqual({ xs: [3, 1, 2], o: { k: 1 } });
  });

  test("errors come back as SandboxErrors with their position", async () => {
    const error = await pool()
      .evaluate("1 +\n missing", {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({ kind: "reference", line: 2, column: 2 });
    await expect(pool().evaluate("'a'.repeat(1e9)", {})).rejects.toMatchObject({
      kind: "limit",
      limit: "maxStringLength",
    });
  });

  test("prints and the time cross the process boundary: the time given, the lines printed, also before a failure", async () => {
    const sandbox = pool();
    const code = "console.log('at', Date.now(), [1]); console.warn('w'); Date.now() + 1";
    const result = await sandbox.evaluate(code, {}, { now: 1_000 });
    expect(result).toEqual(evaluate(code, {}, { now: 1_000 }));
    expect(result).toMatchObject({
      value: 1_001,
      time: 1_000,
      logs: [
        { level: "log", text: "at 1000 [ 1 ]" },
        { level: "warn", text: "w" },
      ],
    });
    const failed = await sandbox.evaluate("console.log('before'); null.x", {}).catch((e: SandboxError) => e);
    expect(failed).toMatchObject({ kind: "type", logs: [{ level: "log", text: "before" }] });
  });

  test("tools run in the host process, once per call, and may be asynchronous", async () => {
    const calls: unknown[] = [];
    const sandbox = pool({ functions: { lookup: (id) => (calls.push(id), { id, name: `user ${id}` }) } });
    const result = await sandbox.evaluate(
      "lookup(1).name + ' & ' + later(2)",
      {},
      {
        functions: { later: (n) => new Promise((resolve) => setTimeout(() => resolve(Number(n) * 10), 5)) },
      },
    );
    expect(result.value).toBe("user 1 & 20");
    expect(calls).toEqual([1]);
    const failing = await sandbox
      .evaluate(
        "broken()",
        {},
        {
          functions: {
            broken: () => {
              throw new Error("nope");
            },
          },
        },
      )
      .catch((e: unknown) => e);
    expect(failing).toMatchObject({ kind: "host", message: "the tool 'broken' failed: nope" });
    const notData = await sandbox.evaluate("fn()", {}, { functions: { fn: () => () => 1 } }).catch((e: unknown) => e);
    expect(notData).toMatchObject({ kind: "host" });
  });

  test("the watchdog stops a process that runs too long, and the pool goes on", async () => {
    // The endless loop burns a core until the watchdog ends it: not longer than needed.
    const timeoutMs = 600;
    const sandbox = pool({ size: 1, timeoutMs });
    const start = Date.now();
    const error = await sandbox.evaluate(ENDLESS, {}, NO_LIMITS).catch((e: unknown) => e);
    const elapsed = Date.now() - start;
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({
      kind: "limit",
      limit: "maxTimeMs",
      message: expect.stringContaining(`within ${timeoutMs} ms`),
    });
    // Stopped by the watchdog's clock, not before it and not by the end of the work.
    expect(elapsed).toBeGreaterThanOrEqual(timeoutMs - 10);
    expect(elapsed).toBeLessThan(timeoutMs + 20_000);
    expect((await sandbox.evaluate("1 + 1", {})).value).toBe(2);
  });

  test("time inside a tool does not count for the watchdog, and its clock goes on after the tool", async () => {
    const sandbox = pool({ size: 1, timeoutMs: 600 });
    const wait = () => new Promise((resolve) => setTimeout(() => resolve(1), 1_200));
    expect((await sandbox.evaluate("wait() + 1", {}, { functions: { wait } })).value).toBe(2);
    const quick = () => Promise.resolve(1);
    const error = await sandbox
      .evaluate(`quick() + ${ENDLESS}`, {}, { ...NO_LIMITS, functions: { quick } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "limit", limit: "maxTimeMs" });
  });

  test("the memory cap stops a process that allocates too much, and the pool goes on", async () => {
    // A 25 s watchdog: a maxAllocation error says the memory cap, not the clock, stopped the child.
    const sandbox = pool({ size: 1, memoryLimitMb: 160, timeoutMs: 25_000 });
    const hog =
      "const parts = Array.from({ length: 100 }, (_, i) => 'x'.repeat(1e7) + i); parts.map(s => s.indexOf('y')).length";
    const error = await sandbox.evaluate(hog, {}, NO_LIMITS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({ kind: "limit", limit: "maxAllocation" });
    expect((await sandbox.evaluate("'still' + ' here'", {})).value).toBe("still here");
  });

  test("what cannot reach the child, or a child that cannot start, is an error, not a crash", async () => {
    const sandbox = pool({ size: 1 });
    await expect(sandbox.evaluate("1", { f: (() => 1) as never })).rejects.toMatchObject({ kind: "type" });
    expect((await sandbox.evaluate("2", {})).value).toBe(2);
    const broken = pool({ workerPath: join(paths.dir, "missing.mjs") });
    await expect(broken.evaluate("1", {})).rejects.toMatchObject({
      kind: "host",
      message: expect.stringMatching(/stopped unexpectedly/),
    });
  });

  test("several evaluations share the children; closing rejects what is left", async () => {
    const sandbox = createSandboxPool({ workerPath: paths.workerPath, size: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => sandbox.evaluate("n * n", { n: i })));
    expect(results.map((r) => r.value)).toEqual([0, 1, 4, 9, 16, 25]);
    const pending = sandbox.evaluate(ENDLESS, {}, NO_LIMITS).catch((e: unknown) => e);
    await sandbox.close();
    expect(await pending).toMatchObject({ kind: "host", message: "the sandbox pool was closed" });
    await expect(sandbox.evaluate("1", {})).rejects.toMatchObject({ message: "the sandbox pool was closed" });
  });
});
