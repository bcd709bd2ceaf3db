import { types } from "node:util";
import { describe, expect, test } from "vitest";
import { evaluate, evaluateAsync, SandboxError, type SandboxLimits, type SandboxOptions } from "@autograms/runtime";
import { attempt, stopwatch } from "./realm.js";

/**
 * Every cost is charged before it is paid: strings at the size V8 can make them occupy, built-ins
 * at the time they take, tool results as they are copied; and whatever a tool throws, nothing but
 * a SandboxError comes out. Each class is tested with several shapes of payload. Strings charged
 * where V8 copies them are also run in a process with a capped heap: hardening-capped-heap.slow.ts.
 */

const S = "const s = 'x'.repeat(1e6); ";

describe("stored size: a value's JSON is bounded, with the limit named", () => {
  test("one variable, the value, a tool argument: maxVariableSize", () => {
    for (const code of [
      `${S}let x = Array.from({ length: 20 }, () => s)`,
      `${S}Array.from({ length: 20 }, () => [s])`,
      `${S}tool(Array.from({ length: 20 }, () => s))`,
    ]) {
      const error = attempt(code, {}, { functions: { tool: () => 1 } }).error!;
      expect(error, code).toMatchObject({ kind: "limit", limit: "maxVariableSize" });
      expect(error.message).toContain("maxVariableSize");
    }
  });

  test("everything one evaluation stores: maxMemorySize", () => {
    const error = attempt(`${S}const v = Array.from({ length: 15 }, () => s); let a = v, b = v, c = v, d = v, e = v`)
      .error!;
    expect(error).toMatchObject({ kind: "limit", limit: "maxMemorySize" });
    expect(error.message).toContain("maxMemorySize");
  });

  test("below the limits, data is stored as before, and the limits are configurable", () => {
    const { result } = attempt(`${S}let x = Array.from({ length: 10 }, () => s); x.length`);
    expect(result!.value).toBe(10);
    expect((result!.variables.x as string[]).every((item) => item.length === 1e6)).toBe(true);
    expect(attempt("let x = 'abcdef'", {}, { maxVariableSize: 5 }).error).toMatchObject({ limit: "maxVariableSize" });
    expect(attempt("let x = 'ab'; let y = 'cd'", {}, { maxMemorySize: 7 }).error).toMatchObject({
      limit: "maxMemorySize",
    });
  });
});

const A = "const s = 'a'.repeat(1e6), t = 'a'.repeat(1e6); ";

/** A run that must stop with a limit error, quickly, even when the clock is the only limit left. */
function stops(code: string, options: SandboxOptions = {}): SandboxError {
  const outcome = attempt(code, {}, { maxTimeMs: 60_000, ...options });
  expect(outcome.error, `${code} should stop`).toBeInstanceOf(SandboxError);
  expect(outcome.error!.kind, outcome.error!.message).toBe("limit");
  expect(outcome.ms, code).toBeLessThan(2_000);
  return outcome.error!;
}

// 100 ms: each case below runs until the clock stops it, burning CPU the whole time, twice a case.
const TIME_ONLY: Partial<SandboxLimits> = { maxSteps: 1e12, maxAllocation: 1e12, maxTimeMs: 100 };

/**
 * With only the clock left, a run ends soon after maxTimeMs: stopped by the clock where its real
 * work is slow, or finished where V8 makes that work cheap (a failed number parse stops at the
 * first character, equal strings sort without comparing), which depends on the machine's speed.
 */
function endsInTime(code: string): void {
  const outcome = attempt(code, {}, TIME_ONLY);
  if (outcome.error) expect(outcome.error.kind, outcome.error.message).toBe("limit");
  expect(outcome.ms, code).toBeLessThan(2_000);
}

describe("time: every built-in whose cost grows with its input is charged before it runs", () => {
  test.each([
    `${A}Array.from({ length: 1e5 }).filter(() => s < t).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => s === t).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => s == t).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => s !== t).length`,
    `${A}Array.from({ length: 1e5 }, () => [s, t]).filter(([x, y]) => x >= y).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => s.endsWith(t)).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => s.startsWith(t)).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => s.localeCompare(t) === 0).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => s.includes('aaab')).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => s.indexOf('aaaab', 10) > 0).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => s.split('aaab').length).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => s.lastIndexOf('aaaaaaaaaaaaab') >= 0).length`,
    `${A}Array.from({ length: 100 }).filter(() => s.lastIndexOf(t.slice(0, 5e5) + 'b') >= 0).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => Number(s) > 0).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => parseInt(s) > 0).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => s.trim().length).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => s.toUpperCase().length).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => s.replaceAll('aaab', 'c').length).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => JSON.stringify(s).length).length`,
    `${A}Array.from({ length: 1e5 }).filter(() => JSON.parse(JSON.stringify(s)).length).length`,
    `${A}Array.from({ length: 1e5 }, () => t).includes('a'.repeat(999999) + 'b')`,
    `${A}Array.from({ length: 1e5 }, () => t).indexOf('a'.repeat(999999) + 'b')`,
    `${A}Array.from({ length: 2e4 }, () => s).sort().length`,
    `${A}Array.from({ length: 1e5 }).filter(() => ({ [s]: 1 })).length`,
    "'é'.repeat(1e6).normalize('NFKD').length",
    "'abc'.repeat(3).replaceAll('', '$&'.repeat(4e5)).length",
  ])("%s", (code) => {
    stops(code);
    // With steps unbounded, the clock bounds it instead, a little after maxTimeMs.
    endsInTime(code);
  });

  test("lastIndexOf with a long pattern takes linear time and finds what the native finds", () => {
    const elapsed = stopwatch();
    expect(evaluate("'a'.repeat(1e6).lastIndexOf('a'.repeat(5e5) + 'b')", {}).value).toBe(-1);
    expect(elapsed()).toBeLessThan(2_000);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 200; i++) {
      const text = Array.from(
        { length: 20 + Math.floor(random() * 80) },
        () => "ab\u00e9"[Math.floor(random() * 3)],
      ).join("");
      const start = Math.floor(random() * text.length);
      const pattern = random() < 0.5 ? text.slice(start, start + 17 + Math.floor(random() * 10)) : "ab".repeat(9);
      const from = random() < 0.3 ? Math.floor(random() * 120) - 10 : undefined;
      const expected = from === undefined ? text.lastIndexOf(pattern) : text.lastIndexOf(pattern, from);
      const code = from === undefined ? "text.lastIndexOf(pattern)" : "text.lastIndexOf(pattern, from)";
      expect(evaluate(code, { text, pattern, from: from ?? 0 }).value, `${text} ${pattern} ${from}`).toBe(expected);
    }
  });

  test("the clock counts from the start: one long built-in cannot outlast maxTimeMs unnoticed", () => {
    const error = stops("'é'.repeat(1e6).normalize('NFKD').length", {
      maxSteps: 1e12,
      maxAllocation: 1e12,
      maxStringLength: 1e7,
      maxTimeMs: 1,
    });
    expect(error.limit).toBe("maxTimeMs");
  });

  test("evaluateAsync's reruns share one clock", async () => {
    // Each rerun repeats at least a third of maxTimeMs of work before its next tool call; twenty
    // reruns would take seven times maxTimeMs if each had a clock of its own. The work is sized by
    // a warm run (a first run, still being compiled, took several times as long as the reruns,
    // and a fast engine made the reruns add up to less than maxTimeMs).
    // (It grows by its number of rounds: an array stays under the sandbox's maxArrayLength.)
    const maxTimeMs = 60;
    let rounds = 1;
    const work = () =>
      `Array.from({ length: ${rounds} }, () => Array.from({ length: 3e4 }, (_, i) => i).reduce((a, b) => a + b, 0)).reduce((a, b) => a + b, 0)`;
    for (;;) {
      evaluate(work(), {}, { maxSteps: 1e12 });
      const warm = stopwatch();
      evaluate(work(), {}, { maxSteps: 1e12 });
      if (warm() >= maxTimeMs / 3 || rounds >= 64) break;
      rounds *= 2;
    }
    const code = `const w = ${work()}; Array.from({ length: 20 }, (_, i) => wait(i)).length + w`;
    const elapsed = stopwatch();
    const error = await evaluateAsync(
      code,
      {},
      { maxSteps: 1e12, maxTimeMs, functions: { wait: async (i) => i } },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "limit", limit: "maxTimeMs" });
    expect(elapsed()).toBeLessThan(maxTimeMs * 4 + 1_000);
  });

  test("copying a tool's result is charged per property and watched by the clock", () => {
    const huge: Record<string, number> = {};
    for (let i = 0; i < 6e5; i++) huge[`k${i}`] = i;
    const big = () => huge;
    stops("big()", { functions: { big } });
    expect(stops("big()", { ...TIME_ONLY, maxTimeMs: 50, functions: { big } }).limit).toBe("maxTimeMs");
  });
});

/** Host values a tool may throw, return or reject with, each hostile in its own way. */
function hostileValues(): [string, () => unknown][] {
  const throwing = () => {
    throw new Error("trap");
  };
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  return [
    [
      "a Proxy whose every trap throws",
      () =>
        new Proxy(
          {},
          {
            get: throwing,
            getPrototypeOf: throwing,
            ownKeys: throwing,
            getOwnPropertyDescriptor: throwing,
            has: throwing,
          },
        ),
    ],
    [
      "a Proxy posing as a SandboxError",
      () => new Proxy(new Error("x"), { getPrototypeOf: () => SandboxError.prototype }),
    ],
    ["a revoked Proxy", () => revoked.proxy],
    ["an array Proxy", () => new Proxy([1, 2], { get: throwing })],
    [
      "an object with a throwing getter",
      () => ({
        get value() {
          throw new Error("getter");
        },
      }),
    ],
    [
      "an error whose message is a throwing getter",
      () => Object.defineProperty(new Error(), "message", { get: throwing }),
    ],
    [
      "an object whose then getter throws",
      () => ({
        get then() {
          throw new Error("then");
        },
      }),
    ],
    ["a thenable whose then throws", () => ({ then: throwing })],
    ["a symbol", () => Symbol("s")],
    ["a function", () => () => 1],
    ["undefined", () => undefined],
    [
      "an object with a hostile toString",
      () => ({ toString: throwing, valueOf: throwing, [Symbol.toPrimitive]: throwing }),
    ],
  ];
}

function expectGenuine(error: unknown, label: string): void {
  expect(types.isProxy(error), label).toBe(false);
  expect(error, label).toBeInstanceOf(SandboxError);
  expect(Object.getPrototypeOf(error), label).toBe(SandboxError.prototype);
  expect(SandboxError.is(error), label).toBe(true);
  expect(typeof (error as SandboxError).message, label).toBe("string");
}

describe("errors: nothing but a SandboxError leaves evaluate or evaluateAsync", () => {
  const ways: [string, (value: () => unknown) => (...args: unknown[]) => unknown][] = [
    [
      "thrown",
      (value) => () => {
        throw value();
      },
    ],
    ["returned", (value) => () => value()],
    ["rejected", (value) => () => Promise.reject(value())],
    ["resolved", (value) => () => Promise.resolve().then(() => value())],
    ["returned inside data", (value) => () => ({ data: [value()] })],
  ];

  test.each(hostileValues())("%s, however the tool hands it over", async (name, value) => {
    for (const [how, tool] of ways) {
      const label = `${name}, ${how}`;
      const functions = { tool: tool(value) };
      for (const code of ["tool()", "const r = tool(); JSON.stringify(r)", "[tool()].length"]) {
        let syncOutcome: unknown = null;
        try {
          syncOutcome = evaluate(code, {}, { functions });
        } catch (error) {
          syncOutcome = error;
        }
        if (syncOutcome instanceof Error || types.isProxy(syncOutcome))
          expectGenuine(syncOutcome, `${label} (evaluate)`);
        const asyncOutcome = await evaluateAsync(code, {}, { functions }).catch((error: unknown) => ({ error }));
        if ("error" in (asyncOutcome as object))
          expectGenuine((asyncOutcome as { error: unknown }).error, `${label} (evaluateAsync)`);
      }
    }
  });

  test("a tool's own message survives, without its stack", async () => {
    const error = await evaluateAsync(
      "tool()",
      {},
      {
        functions: {
          tool: async () => {
            throw new TypeError("no such record");
          },
        },
      },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "host", message: "the tool 'tool' failed: no such record" });
  });
});
