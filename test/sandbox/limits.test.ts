import { describe, expect, test } from "vitest";
import { DEFAULT_LIMITS, evaluate, SandboxError, type SandboxLimits } from "@autograms/runtime";
import { attempt } from "./realm.js";

/**
 * Resource exhaustion: every attempt must stop with a SandboxError naming the limit it hit, and
 * stop quickly (no native ever runs with an unchecked size).
 */

function exhausts(
  code: string,
  limit: keyof SandboxLimits,
  variables: Record<string, any> = {},
  options: Partial<SandboxLimits> = {},
): SandboxError {
  // On a busy machine the wall clock could stop a run before the limit under test: leave it out
  // unless it is the one tested. How long the run took is checked below all the same.
  const outcome = attempt(code, variables, limit === "maxTimeMs" ? options : { maxTimeMs: 60_000, ...options });
  expect(outcome.error, `${code} should hit ${limit}`).toBeInstanceOf(SandboxError);
  expect(outcome.error!.kind, outcome.error!.message).toBe("limit");
  expect(outcome.error!.limit, outcome.error!.message).toBe(limit);
  expect(outcome.error!.message).toContain(limit);
  expect(outcome.ms).toBeLessThan(2_000);
  return outcome.error!;
}

describe("string length, counted before allocating", () => {
  test.each([
    "'a'.repeat(2 ** 30)",
    "'ab'.padStart(1e9)",
    "'ab'.padEnd(2 ** 31, 'xy')",
    "Array.from({ length: 40 }).reduce(s => s + s, 'ab')",
    "Array.from({ length: 40 }).reduce(s => `${s}${s}`, 'ab')",
    "Array.from({ length: 40 }).reduce(s => s.concat(s), 'ab')",
    "Array.from({ length: 100 }, () => 'x'.repeat(20000)).join('')",
    "Array.from({ length: 2000 }, () => 'x'.repeat(1000)).join()",
    "'x'.repeat(500000).replaceAll('x', 'yyy')",
    "'x'.repeat(999999).replace('x', \"$'$'$'\")",
    "JSON.stringify(Array.from({ length: 50000 }, () => 'x'.repeat(30)))",
    "String(Array.from({ length: 1000 }, () => 'y'.repeat(2000)))",
    "String.fromCharCode(...Array.from({ length: 99999 }, () => 65)).repeat(20)",
    // Nine characters out for each one in: charged before the native runs.
    "encodeURIComponent('€'.repeat(200000))",
  ])("%s", (code) => {
    exhausts(code, "maxStringLength");
  });
});

describe("array length", () => {
  test.each([
    "Array.from({ length: 2 ** 32 - 1 })",
    "Array.from({ length: 1e9 }, () => 0)",
    "'x'.repeat(1e6).split('')",
    "'a,'.repeat(4e5).split(',')",
    "[...'x'.repeat(200000)]",
    "xs.concat(xs, xs, xs)",
    "[...xs, ...xs, ...xs]",
    "Math.max(...xs, ...xs, ...xs)",
    "Object.keys('x'.repeat(200000))",
    "xs.flatMap(x => [x, x, x])",
    "[xs, xs, xs].flat()",
  ])("%s", (code) => {
    exhausts(code, "maxArrayLength", { xs: Array.from({ length: 40_000 }, (_, i) => i) });
  });

  test("pushing past the limit", () => {
    exhausts("xs.push(...xs); xs.push(...xs); xs.push(...xs)", "maxArrayLength", {
      xs: Array.from({ length: 30_000 }, () => 0),
    });
  });

  test("an array cannot grow holes (so its length is what was written)", () => {
    const error = attempt("xs[4294967294] = 1", { xs: [] }).error!;
    expect(error.kind).toBe("range");
    expect(attempt("xs.length = 4294967295", { xs: [] }).error!.kind).toBe("range");
  });
});

describe("steps and time", () => {
  test.each([
    "Array.from({ length: 1e5 }).map(() => Array.from({ length: 1e5 }).map(() => 0))",
    "Array.from({ length: 1e5 }, () => 0).sort((a, b) => Array.from({ length: 100 }).length)",
    "Array.from({ length: 1e5 }).forEach(() => Array.from({ length: 1e5 }).some(() => false))",
    "'x'.repeat(1e6).replaceAll('', '')",
  ])("%s", (code) => {
    exhausts(code, "maxSteps");
  });

  test("wall time, when steps allow more than the clock", () => {
    const error = exhausts(
      "Array.from({ length: 1e5 }).map(() => Array.from({ length: 1e5 }).map(() => 0))",
      "maxTimeMs",
      {},
      { maxSteps: 1e12, maxTimeMs: 50, maxAllocation: 1e12 },
    );
    expect(error.message).toMatch(/50 ms/);
  });

  test("time spent in a tool is the tool's, not the evaluation's", () => {
    // The tool sleeps three times as long as the evaluation may take, between steps whose clock
    // checks would count the sleep; the evaluation's own work takes a few milliseconds.
    const sleep = () => {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_500);
      return 1;
    };
    const steps = "Array.from({ length: 5000 }, () => 1).length";
    const result = evaluate(`${steps} + wait() + ${steps}`, {}, { maxTimeMs: 500, functions: { wait: sleep } });
    expect(result.value).toBe(10_001);
  });
});

describe("allocation", () => {
  test.each([
    "Array.from({ length: 1e5 }, () => Array.from({ length: 1e4 }, () => 0))",
    "Array.from({ length: 1e5 }, () => ({ a: 1, b: 2, c: 3, d: [1, 2, 3, 4, 5, 6, 7, 8] }))",
    "Array.from({ length: 1e4 }, () => 'x'.repeat(1e5))",
    "Array.from({ length: 1e4 }, (_, i) => 'x'.repeat(1e5).slice(i).toUpperCase())",
  ])("%s", (code) => {
    exhausts(code, "maxAllocation", {}, { maxSteps: 1e9, maxAllocation: 4e6 });
  });
});

describe("nesting depth, in code and in data", () => {
  test.each([
    "[".repeat(10_000) + "]".repeat(10_000),
    "(".repeat(10_000) + "1" + ")".repeat(10_000),
    "-".repeat(10_000) + "1",
    "!".repeat(10_000) + "1",
    "a" + ".b".repeat(10_000),
    Array.from({ length: 10_000 }, () => "1").join(" + "),
    "2 ** ".repeat(10_000) + "2",
    "`${".repeat(5_000) + "1" + "}`".repeat(5_000),
    "xs.map(x => ".repeat(500) + "x" + ")".repeat(500),
  ])("code: %#", (code) => {
    exhausts(code, "maxDepth", { a: {}, xs: [] });
  });

  test.each([
    "Array.from({ length: 5000 }).reduce(a => [a], [])",
    "JSON.stringify(Array.from({ length: 5000 }).reduce(a => [a], []))",
    "String(Array.from({ length: 5000 }).reduce(a => [a], []))",
    "Array.from({ length: 5000 }).reduce(a => [a], []).flat(Infinity)",
    "JSON.parse('['.repeat(100000) + ']'.repeat(100000))",
    "x = Array.from({ length: 5000 }).reduce(a => ({ a }), {})",
  ])("data: %s", (code) => {
    exhausts(code, "maxDepth", { x: 0 });
  });

  test("deep input data met while copying", () => {
    let deep: any = [];
    for (let i = 0; i < 1_000; i++) deep = [deep];
    exhausts("d.push(1)", "maxDepth", { d: deep });
  });
});

describe("shared structure cannot multiply work or output", () => {
  test.each([
    "Array.from({ length: 40 }).reduce(a => [a, a], [1])",
    "JSON.stringify(Array.from({ length: 40 }).reduce(a => [a, a], [1]))",
    "String(Array.from({ length: 40 }).reduce(a => [a, a], [1]))",
    "x = Array.from({ length: 40 }).reduce(a => ({ l: a, r: a }), {})",
    "tool(Array.from({ length: 40 }).reduce(a => [a, a], [1]))",
  ])("%s", (code) => {
    // Which limit comes first (steps, time, output length) depends on the machine; one must.
    const outcome = attempt(code, { x: 0 }, { functions: { tool: () => 1 } });
    expect(outcome.error?.kind, outcome.error?.message).toBe("limit");
    expect(outcome.ms).toBeLessThan(2_000);
  });

  test("a cycle cannot be stored or serialised", () => {
    expect(attempt("xs.push(xs)", { xs: [] }).error!.message).toMatch(/cycle/);
    expect(attempt("xs.push(xs); JSON.stringify(xs)", { xs: [] }).error!.message).toMatch(/circular/);
    expect(attempt("xs.push(xs); String(xs)", { xs: [] }).error!.message).toMatch(/cycle/);
  });
});

describe("BigInt and exponent size", () => {
  test.each([
    "2n ** 100000n",
    "1n << 100000n",
    "1n >> -100000n",
    "(2n ** 4000n) * (2n ** 4000n)",
    "10n ** 10n ** 10n",
    "Array.from({ length: 5000 }).reduce(a => a * 3n, 1n)",
    "9".repeat(2000) + "n",
    "1n == '9'.repeat(5000)",
  ])("%s", (code) => {
    exhausts(code, "maxBigIntBits");
  });

  test("small BigInts work", () => {
    expect(evaluate("String(2n ** 100n + 1n)", {}).value).toBe("1267650600228229401496703205377");
  });
});

test("source length", () => {
  exhausts("1 + ".repeat(60_000) + "1", "maxSourceLength");
});

test("a breach stops the evaluation only: the variables are as they were", () => {
  const variables = { xs: [1, 2, 3], n: 1 };
  expect(() => evaluate("n = 2; xs.push(4); 'a'.repeat(1e9)", variables)).toThrow(SandboxError);
  expect(variables).toEqual({ xs: [1, 2, 3], n: 1 });
  expect(evaluate("n + xs.length", variables).value).toBe(4);
});

test("limits are configurable and checked", () => {
  expect(() => evaluate("'ab'.repeat(6)", {}, { maxStringLength: 10 })).toThrow(/maxStringLength/);
  expect(evaluate("'ab'.repeat(5)", {}, { maxStringLength: 10 }).value).toBe("ababababab");
  expect(() => evaluate("1", {}, { maxSteps: -1 })).toThrow(/maxSteps must be a positive number/);
  expect(DEFAULT_LIMITS.maxSteps).toBeGreaterThan(0);
  expect(Object.isFrozen(DEFAULT_LIMITS)).toBe(true);
});
