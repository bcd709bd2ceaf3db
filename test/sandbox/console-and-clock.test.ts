// console.log as a debug print the evaluation reports (never a way out), and Date.now() as a
// value the host gives (or its clock, read once per evaluation).
import { describe, expect, it } from "vitest";
import { formatWithOptions } from "node:util";
import { evaluate, evaluateAsync, SandboxError, type JsonValue } from "@autograms/runtime";

const printed = (code: string, variables: Record<string, JsonValue> = {}, options = {}) =>
  evaluate(code, variables, options).logs?.map((l) => l.text);

function failure(run: () => unknown): SandboxError {
  try {
    run();
  } catch (e) {
    expect(SandboxError.is(e)).toBe(true);
    return e as SandboxError;
  }
  throw new Error("expected a SandboxError");
}

describe("console.log", () => {
  it("prints its arguments as Node's console does, one line, and returns undefined", () => {
    // Values as code writes them, and the host values Node's console formats the same way.
    const cases: [string, unknown[]][] = [
      [`"text", 1, -0, 2.5, 10n, true, null, undefined`, ["text", 1, -0, 2.5, 10n, true, null, undefined]],
      [`[1, "two", [3, []], {}]`, [[1, "two", [3, []], {}]]],
      [`{ a: 1, "b-c": "it's", d: [true] }`, [{ a: 1, "b-c": "it's", d: [true] }]],
      [`"tab\\tline\\n", ["tab\\tline\\n", "back\\\\slash"]`, ["tab\tline\n", ["tab\tline\n", "back\\slash"]]],
      [
        `{ q: "say \\"hi\\" it's" }, { _x$1: NaN, "1a": Infinity }`,
        [{ q: `say "hi" it's` }, { _x$1: NaN, "1a": Infinity }],
      ],
      [``, []],
    ];
    for (const [args, values] of cases) {
      const r = evaluate(`console.log(${args})`, {});
      expect(r.value).toBeUndefined();
      expect(r.logs, args).toEqual([{ level: "log", text: formatWithOptions({ breakLength: Infinity }, ...values) }]);
    }
  });

  it("reports every print in order with its level, wherever code runs", () => {
    const r = evaluate(
      `console.info("a"); [1, 2].forEach(x => console.warn(x)); console.error({ e: 1 }); console.debug("d"); 7`,
      {},
    );
    expect(r.value).toBe(7);
    expect(r.logs).toEqual([
      { level: "info", text: "a" },
      { level: "warn", text: "1" },
      { level: "warn", text: "2" },
      { level: "error", text: "{ e: 1 }" },
      { level: "debug", text: "d" },
    ]);
    expect(evaluate("1 + 1", {}).logs).toBeUndefined();
  });

  it("changes no variable: printing reads its arguments only", () => {
    const variables = { xs: [1, { a: "b" }], n: 3 };
    const r = evaluate("console.log(xs, n)", variables);
    expect(r.variables).toEqual(variables);
    expect(r.variables.xs).toBe(variables.xs);
    expect(printed("console.log(xs, n)", variables)).toEqual(["[ 1, { a: 'b' } ] 3"]);
  });

  it("shows a cycle as [Circular], as Node does, before the cycle is refused as memory", () => {
    const e = failure(() => evaluate("let a = [1]; a.push(a); console.log(a)", {}));
    expect(e.message).toContain("cycle");
    expect(e.logs).toEqual([{ level: "log", text: "[ 1, [Circular] ]" }]);
  });

  it("cuts a line at maxLogLength with a note, reading no more of a value than that", () => {
    const [long] = printed(`console.log("x".repeat(20000))`)!;
    expect(long).toBe(`${"x".repeat(10_000)} … [cut at 10000 characters (maxLogLength)]`);
    const xs = Array.from({ length: 100_000 }, (_, i) => `item ${i}`);
    // 100,000 elements to read, but only what fits in 100 characters is: a few steps.
    const [cut] = printed("console.log(xs)", { xs }, { maxLogLength: 100, maxSteps: 1_000 })!;
    expect(cut).toBe(
      `${`[ ${xs
        .slice(0, 20)
        .map((x) => `'${x}'`)
        .join(", ")}`.slice(0, 100)} … [cut at 100 characters (maxLogLength)]`,
    );
    // Never half a surrogate pair at the cut.
    expect(printed(`console.log("a" + "😀".repeat(10))`, {}, { maxLogLength: 4 })![0]).toBe(
      "a😀 … [cut at 4 characters (maxLogLength)]",
    );
  });

  it("is charged to the evaluation's limits: steps for what it formats, allocation for what it keeps", () => {
    const xs = Array.from({ length: 100_000 }, (_, i) => i);
    const steps = failure(() => evaluate("console.log(xs)", { xs }, { maxLogLength: 10_000_000, maxSteps: 10_000 }));
    expect(steps.limit).toBe("maxSteps");
    const kept = failure(() =>
      evaluate(`Array.from({ length: 1000 }, () => console.log("x".repeat(1000)))`, {}, { maxAllocation: 1_000_000 }),
    );
    expect(kept.limit).toBe("maxAllocation");
    // What was printed before the limit stopped it is still reported.
    expect(kept.logs!.length).toBeGreaterThan(100);
  });

  it("reports what code printed before it failed", () => {
    const e = failure(() => evaluate(`console.log("before", x); x.y.z`, { x: { y: null } }));
    expect(e.kind).toBe("type");
    expect(e.logs).toEqual([{ level: "log", text: "before { y: null }" }]);
  });

  it("is a function only when called: not a value, not reachable by a computed name, no other member", () => {
    expect(failure(() => evaluate("const f = console.log", {})).message).toContain("can only be called");
    expect(failure(() => evaluate("console['log'](1)", {})).kind).toBe("unsupported");
    expect(failure(() => evaluate("console.table([1])", {})).message).toBe(
      "console.table is not available in the sandbox",
    );
    expect(failure(() => evaluate("let console = 1", {})).kind).not.toBe(undefined);
  });

  it("prints once per line in an asynchronous evaluation, whatever its reruns", async () => {
    const r = await evaluateAsync(
      `console.log("a"); const v = t(1); console.log("b", v); v`,
      {},
      { functions: { t: async (x) => Number(x) + 1 } },
    );
    expect(r.value).toBe(2);
    expect(r.logs).toEqual([
      { level: "log", text: "a" },
      { level: "log", text: "b 2" },
    ]);
  });
});

describe("Date.now()", () => {
  it("is the time the host gives, the same for every read", () => {
    const r = evaluate("[Date.now(), Date.now() - 1000]", {}, { now: 1_700_000_000_000 });
    expect(r.value).toEqual([1_700_000_000_000, 1_699_999_999_000]);
    expect(r.time).toBe(1_700_000_000_000);
    expect(evaluate("1", {}, { now: 5 }).time).toBeUndefined();
  });

  it("is the host's clock, read once, when the host gives none", () => {
    const before = Date.now();
    const r = evaluate("[Date.now(), Date.now()]", {});
    const after = Date.now();
    const [a, b] = r.value as number[];
    expect(a).toBe(b);
    expect(a).toBeGreaterThanOrEqual(before);
    expect(a).toBeLessThanOrEqual(after);
    expect(r.time).toBe(a);
  });

  it("keeps its value across the reruns of an asynchronous evaluation", async () => {
    const seen: JsonValue[] = [];
    const wait = async (t: JsonValue) => {
      seen.push(t);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return t;
    };
    // The tool is called in the first run; the value comes from the last, 20 ms later.
    const r = await evaluateAsync("const first = wait(Date.now()); [first, Date.now()]", {}, { functions: { wait } });
    const [first, last] = r.value as number[];
    expect(seen).toEqual([first]);
    expect(last).toBe(first);
  });

  it("refuses a time that is not a finite number, and every other member of Date", () => {
    expect(failure(() => evaluate("Date.now()", {}, { now: Number.NaN })).message).toContain("finite number");
    expect(failure(() => evaluate("Date.parse('2020')", {})).message).toBe(
      "Date.parse is not available in the sandbox",
    );
    expect(failure(() => evaluate("new Date()", {})).kind).toBe("unsupported");
  });
});
