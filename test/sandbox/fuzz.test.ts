import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { evaluate, SandboxError, type SandboxLimits } from "@autograms/runtime";
import { expectPlainData, expectRealmUntouched, snapshotRealm, stopwatch } from "./realm.js";

/**
 * Random programs from the sandbox language (and past it): whatever they are, they only ever
 * return plain data or throw a SandboxError, stay within the limits (up to a margin), never
 * hang, and leave the realm and their input untouched.
 */

const LIMITS: Partial<SandboxLimits> = {
  maxSteps: 50_000,
  maxTimeMs: 100,
  maxStringLength: 10_000,
  maxArrayLength: 2_000,
  maxAllocation: 2_000_000,
  maxDepth: 60,
  maxBigIntBits: 512,
};

const variables = () => ({
  a: 1,
  b: -2.5,
  n: 0,
  s: "text",
  t: "a,b,c",
  xs: [3, 1, 2],
  words: ["x", "yy", "zzz"],
  o: { k: 1, nested: { list: [1, { deep: true }] }, toString: "s", valueOf: 2, then: 3 },
  empty: {},
  nil: null,
});

const NAMES = [
  "a",
  "b",
  "n",
  "s",
  "t",
  "xs",
  "words",
  "o",
  "empty",
  "nil",
  "missing",
  "$a",
  "x",
  "y",
  "__proto__",
  "constructor",
  "prototype",
  "Math",
  "JSON",
  "Object",
  "Array",
  "String",
  "Number",
  "process",
  "globalThis",
  "this",
  "eval",
  "Function",
  "undefined",
  "NaN",
  "Infinity",
  "tool",
];
const KEYS = [
  "length",
  "constructor",
  "__proto__",
  "prototype",
  "toString",
  "valueOf",
  "map",
  "k",
  "nested",
  "list",
  "0",
  "1",
  "-1",
  "then",
  "call",
  "apply",
  "bind",
  "caller",
  "arguments",
];
const METHODS = [
  "map",
  "filter",
  "reduce",
  "some",
  "every",
  "find",
  "sort",
  "join",
  "push",
  "pop",
  "shift",
  "unshift",
  "splice",
  "slice",
  "concat",
  "flat",
  "flatMap",
  "includes",
  "indexOf",
  "at",
  "reverse",
  "fill",
  "repeat",
  "padStart",
  "padEnd",
  "split",
  "replace",
  "replaceAll",
  "toUpperCase",
  "trim",
  "charCodeAt",
  "toFixed",
  "toString",
  "valueOf",
  "constructor",
  "__proto__",
  "apply",
  "call",
  "bind",
  "match",
];
const STATIC_CALLS = [
  "Math.max",
  "Math.min",
  "Math.floor",
  "Math.pow",
  "Math.random",
  "JSON.stringify",
  "JSON.parse",
  "Object.keys",
  "Object.values",
  "Object.entries",
  "Object.fromEntries",
  "Array.from",
  "Array.isArray",
  "Array.of",
  "Number.isInteger",
  "String.fromCharCode",
  "String",
  "Number",
  "Boolean",
  "parseInt",
  "parseFloat",
  "isNaN",
  "tool",
  "Object.defineProperty",
  "Reflect.get",
  "require",
  "eval",
];
const BINARY = [
  "+",
  "-",
  "*",
  "/",
  "%",
  "**",
  "==",
  "===",
  "!=",
  "<",
  ">=",
  "&&",
  "||",
  "??",
  "&",
  "|",
  "<<",
  ">>",
  ">>>",
  "in",
  "instanceof",
  ",",
];
const UNARY = ["-", "+", "!", "~", "typeof ", "void ", "delete "];
const ASSIGN = ["=", "+=", "-=", "*=", "||=", "??=", "&&="];

const pick = (list: string[]) => fc.constantFrom(...list);

const { expression } = fc.letrec<{ expression: string }>((tie) => {
  const sub = tie("expression");
  return {
    expression: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      pick(NAMES),
      fc.integer({ min: -1e6, max: 1e6 }).map(String),
      fc.constantFrom("0.5", "1e21", "-0", "2n", "10n ** 20n", "0x1f", "1_000"),
      fc.string({ maxLength: 8 }).map((text) => JSON.stringify(text)),
      fc.tuple(sub, pick(BINARY), sub).map(([l, op, r]) => `(${l} ${op} ${r})`),
      fc.tuple(pick(UNARY), sub).map(([op, e]) => `${op}(${e})`),
      fc.tuple(sub, pick(KEYS)).map(([e, k]) => `${e}.${k}`),
      fc.tuple(sub, sub).map(([e, k]) => `${e}[${k}]`),
      fc.tuple(sub, pick(KEYS)).map(([e, k]) => `${e}?.${k}`),
      fc
        .tuple(sub, pick(METHODS), fc.array(sub, { maxLength: 2 }))
        .map(([e, m, args]) => `${e}.${m}(${args.join(", ")})`),
      fc.tuple(sub, pick(METHODS), sub).map(([e, m, body]) => `${e}.${m}((x, i) => ${body})`),
      fc.tuple(pick(STATIC_CALLS), fc.array(sub, { maxLength: 3 })).map(([f, args]) => `${f}(${args.join(", ")})`),
      fc.array(sub, { maxLength: 3 }).map((items) => `[${items.join(", ")}]`),
      fc
        .array(fc.tuple(pick(KEYS), sub), { maxLength: 3 })
        .map((entries) => `({ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(", ")} })`),
      sub.map((e) => `[...${e}]`),
      sub.map((e) => `({ ...${e} })`),
      fc.tuple(sub, sub, sub).map(([c, x, y]) => `(${c} ? ${x} : ${y})`),
      fc.tuple(sub, sub).map(([x, y]) => `\`${"$"}{${x}}-${"$"}{${y}}\``),
      fc
        .tuple(
          pick(["x", "y", "a", "n", "xs", "o.k", "xs[0]", "o.nested.list[1].deep", "__proto__", "constructor"]),
          pick(ASSIGN),
          sub,
        )
        .map(([target, op, value]) => `(${target} ${op} ${value})`),
      fc.tuple(pick(["a", "n", "xs[0]", "o.k"]), fc.constantFrom("++", "--")).map(([target, op]) => `${target}${op}`),
      // Amplifiers: what exhausts resources when nested.
      fc.tuple(sub, pick(["10", "1e3", "1e5", "2 ** 31"])).map(([e, count]) => `String(${e}).repeat(${count})`),
      fc
        .tuple(pick(["3", "1e3", "1e5", "1e9"]), sub)
        .map(([count, body]) => `Array.from({ length: ${count} }, (x, i) => ${body})`),
      fc
        .tuple(pick(["5", "40"]), sub)
        .map(([count, seed]) => `Array.from({ length: ${count} }).reduce(acc => [acc, acc], ${seed})`),
    ),
  };
});

const program = fc.oneof(
  expression,
  fc
    .array(
      fc.oneof(
        expression,
        fc
          .tuple(pick(["let", "const", "var"]), pick(["x", "y", "z", "a", "[p, q]", "{ k, ...r }"]), expression)
          .map(([keyword, target, value]) => `${keyword} ${target} = ${value}`),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((statements) => statements.join("; ")),
);

const outcomes = new Map<string, number>();

function check(code: string): void {
  const input = variables();
  const before = snapshotRealm();
  const elapsed = stopwatch();
  let result: ReturnType<typeof evaluate> | undefined;
  try {
    result = evaluate(code, input, { ...LIMITS, functions: { tool: (...args) => ({ got: args.length }) } });
    outcomes.set("value", (outcomes.get("value") ?? 0) + 1);
  } catch (error) {
    if (!(error instanceof SandboxError)) throw new Error(`${code}: ${String(error)}`);
    outcomes.set(error.kind, (outcomes.get(error.kind) ?? 0) + 1);
    expect(["syntax", "unsupported", "reference", "type", "range", "limit", "thrown", "host"]).toContain(error.kind);
  }
  expect(elapsed(), code).toBeLessThan(LIMITS.maxTimeMs! + 400);
  expectRealmUntouched(before);
  expect(input).toEqual(variables());
  if (result !== undefined) {
    expectPlainData(result.value);
    expectPlainData(result.variables, "variables");
    const text = JSON.stringify(result);
    expect(text.length).toBeLessThan(50 * LIMITS.maxAllocation!);
    for (const value of [result.value, ...Object.values(result.variables)]) withinLimits(value);
  }
}

function withinLimits(value: unknown): void {
  if (typeof value === "string") expect(value.length).toBeLessThanOrEqual(LIMITS.maxStringLength!);
  else if (Array.isArray(value)) {
    expect(value.length).toBeLessThanOrEqual(LIMITS.maxArrayLength!);
    value.forEach(withinLimits);
  } else if (value !== null && typeof value === "object") Object.values(value).forEach(withinLimits);
}

describe("property: random programs", () => {
  test("return plain data or throw a SandboxError, within the limits", () => {
    fc.assert(fc.property(program, check), { numRuns: 600, seed: 20240621 });
  });

  test("the generator reaches the evaluator, not just the parser", () => {
    outcomes.clear();
    fc.assert(fc.property(program, check), { numRuns: 400, seed: 7 });
    const total = [...outcomes.values()].reduce((sum, count) => sum + count, 0);
    const refusedEarly = (outcomes.get("syntax") ?? 0) + (outcomes.get("unsupported") ?? 0);
    expect((total - refusedEarly) / total).toBeGreaterThan(0.5);
    expect((outcomes.get("value") ?? 0) / total).toBeGreaterThan(0.1);
    expect(outcomes.get("limit") ?? 0).toBeGreaterThan(0);
  });

  test("random programs with a fresh seed each run", () => {
    fc.assert(fc.property(program, check), { numRuns: 200 });
  });

  test("arbitrary text is refused cleanly or evaluated", () => {
    fc.assert(fc.property(fc.string({ maxLength: 40, unit: "binary" }), check), { numRuns: 500 });
  });

  test("mangled attacks stay refused", () => {
    const attacks = [
      "''.constructor.constructor('return process')()",
      "o.__proto__.x = 1",
      "xs.map(x => this)",
      "JSON.parse('{\"__proto__\":1}')",
      "'a'.repeat(1e9)",
      "Object.keys(globalThis)",
    ];
    const mangled = fc
      .tuple(fc.constantFrom(...attacks), fc.nat(60), fc.string({ maxLength: 3 }))
      .map(([text, at, insert]) => text.slice(0, at % (text.length + 1)) + insert + text.slice(at % (text.length + 1)));
    fc.assert(fc.property(mangled, check), { numRuns: 300 });
  });
});
