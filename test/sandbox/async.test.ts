import { describe, expect, test } from "vitest";
import { checkCode, evaluate, evaluateAsync, hostFunctionNames, SandboxError } from "@autograms/runtime";

const later = <T>(value: T, ms = 5) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe("evaluateAsync", () => {
  test("awaits tools that return promises, calling each tool once", async () => {
    const calls: string[] = [];
    const functions = {
      user: (id: unknown) => {
        calls.push(`user(${JSON.stringify(id)})`);
        return later({ id, name: "Ann" });
      },
      score: (name: unknown) => {
        calls.push(`score(${JSON.stringify(name)})`);
        return later(String(name).length * 10);
      },
      shout: (text: unknown) => {
        calls.push(`shout(${JSON.stringify(text)})`);
        return String(text).toUpperCase();
      },
    };
    const result = await evaluateAsync(
      "const u = user(id); const points = score(u.name) + score('x'); shout(u.name) + points",
      { id: 7 },
      { functions },
    );
    expect(result.value).toBe("ANN40");
    expect(result.variables).toEqual({ id: 7, u: { id: 7, name: "Ann" }, points: 40 });
    expect(calls).toEqual(["user(7)", 'score("Ann")', 'score("x")', 'shout("Ann")']);
  });

  test("randomness is the same in every rerun", async () => {
    const seen: unknown[] = [];
    const functions = { record: (value: unknown) => seen.push(value), wait: () => later(null) };
    const result = await evaluateAsync("const r = Math.random(); record(r); wait(); r", {}, { functions });
    expect(seen).toEqual([result.value]);
  });

  test("a rejected promise is a host error with the message only", async () => {
    const error = await evaluateAsync(
      "fetchIt()",
      {},
      { functions: { fetchIt: () => Promise.reject(new Error("offline")) } },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).kind).toBe("host");
    expect((error as SandboxError).message).toBe("the tool 'fetchIt' failed: offline");
  });

  test("time waiting for a tool is not the evaluation's", async () => {
    // The wait is three times what the evaluation may take, between steps whose clock checks would
    // count it; the evaluation's own work takes a few milliseconds.
    const steps = "Array.from({ length: 5000 }, () => 1).length";
    const result = await evaluateAsync(
      `${steps} + slow() + ${steps}`,
      {},
      { maxTimeMs: 1_000, functions: { slow: () => later(1, 3_000) } },
    );
    expect(result.value).toBe(10_001);
  });

  test("code errors reject with a SandboxError", async () => {
    await expect(evaluateAsync("1 +", {})).rejects.toMatchObject({ kind: "syntax" });
    await expect(evaluateAsync("missing", {})).rejects.toMatchObject({ kind: "reference", line: 1, column: 1 });
  });

  test("the input is untouched even when a write precedes a pending tool", async () => {
    const variables = { xs: [1] };
    const result = await evaluateAsync("xs.push(2); const v = wait(); xs.push(v); xs", variables, {
      functions: { wait: () => later(3) },
    });
    expect(result.value).toEqual([1, 2, 3]);
    expect(variables).toEqual({ xs: [1] });
  });
});

describe("checkCode", () => {
  test("accepts the language without running it", () => {
    let called = false;
    const tool = () => {
      called = true;
    };
    expect(checkCode("const total = items.reduce((sum, i) => sum + i.price, 0); notify(total)")).toBeNull();
    expect(called).toBe(false);
    expect(evaluate("1", {}, { functions: { tool } }).value).toBe(1);
  });

  test.each([
    ["1 +", "syntax"],
    ["new Date()", "unsupported"],
    ["x => x", "unsupported"],
    ["o.__proto__", "unsupported"],
    ["Math.foo()", "unsupported"],
    ["const c = 1; c = 2", "type"],
    ["while (true) {}", "unsupported"],
  ] as const)("%s is refused as %s", (code, kind) => {
    const error = checkCode(code);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error!.kind).toBe(kind);
    expect(error!.line).toBe(1);
  });
});

describe("hostFunctionNames", () => {
  const names = (code: string) => [...hostFunctionNames(code)].sort();

  test("lists the free names code calls or asks typeof of, wherever they are", () => {
    expect(names("const r = lookup(x); notify?.(r)")).toEqual(["lookup", "notify"]);
    expect(names("xs.map((v) => lookup(v)).filter((w) => w > limit(w))")).toEqual(["limit", "lookup"]);
    expect(names("typeof lookup === 'function' ? 1 : $save(2)")).toEqual(["$save", "lookup"]);
    expect(names('tryTool("lookup", 1)')).toEqual(["tryTool"]);
  });

  test("leaves out what cannot reach a host function: built-ins, methods, arrow parameters, text, keys and reads", () => {
    expect(names('String(x) + Math.max(1, 2) + xs.lookup() + "lookup(x)" + `${lookup}`')).toEqual([]);
    expect(names("o = { lookup: 1, [k]: 2 }; o.lookup; o?.lookup; typeof o.lookup")).toEqual([]);
    expect(names("xs.map((lookup) => lookup + 1); xs.some((f) => typeof f === 'number')")).toEqual([]);
  });

  test("matches what the evaluation looks up: without those names bound, it runs the same", () => {
    const functions = { lookup: () => 42, other: () => 0 };
    for (const code of ["xs.map((x) => x * 2)", "typeof other", "lookup(1) + 1"]) {
      const bound = evaluate(code, { xs: [1] }, { functions }).value;
      const used = hostFunctionNames(code);
      const only = Object.fromEntries(Object.entries(functions).filter(([name]) => used.has(name)));
      expect(evaluate(code, { xs: [1] }, { functions: only }).value).toEqual(bound);
    }
  });

  test("refuses code as evaluating it would, and takes the limits that shape parsing", () => {
    expect(() => hostFunctionNames("lookup(")).toThrow(SandboxError);
    expect(() => hostFunctionNames("new lookup()")).toThrow(/new/);
    expect([...hostFunctionNames("f(1)", { maxDepth: 50 })]).toEqual(["f"]);
    expect(() => hostFunctionNames("f(((((1)))))", { maxDepth: 3 })).toThrow(/maxDepth/);
  });
});

test("reruns for asynchronous tools share a bounded budget", async () => {
  let calls = 0;
  const functions = { tick: () => Promise.resolve(++calls) };
  const error = await evaluateAsync(
    "Array.from({ length: 5000 }, () => tick()).length",
    {},
    { maxSteps: 20_000, functions },
  ).catch((e: unknown) => e);
  expect(error).toMatchObject({ kind: "limit", limit: "maxSteps" });
  expect(calls).toBeLessThan(5000);
  const result = await evaluateAsync(
    "Array.from({ length: 20 }, () => tick()).length",
    {},
    { maxSteps: 20_000, functions },
  );
  expect(result.value).toBe(20);
});
