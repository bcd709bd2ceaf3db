import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { evaluate, SandboxError } from "@autograms/runtime";

/**
 * The sandbox keeps JavaScript's semantics for what it allows: random expressions of the allowed
 * language give the same value here as in V8 itself. (The test runs them natively through
 * `new Function`, on a copy of the data: that is the test's oracle, never the sandbox's method.)
 */

const data = () => ({
  n: 7,
  m: -3,
  f: 2.5,
  z: 0,
  s: "Hello, World",
  e: "",
  csv: "a,b,,c",
  xs: [5, 1, 4, 1, 3],
  ws: ["pear", "Apple", "fig"],
  ys: [
    [1, 2],
    [3, [4, 5]],
  ],
  o: { a: 1, b: "two", c: [3], d: { e: null } },
  nil: null,
  t: true,
});

const ATOMS = [
  "n",
  "m",
  "f",
  "z",
  "s",
  "e",
  "csv",
  "xs",
  "ws",
  "ys",
  "o",
  "nil",
  "t",
  "o.a",
  "o.b",
  "o.c",
  "o.d.e",
  "xs[0]",
  "xs.length",
  "s.length",
  "ws[1]",
  "1",
  "0",
  "-1",
  "2.5",
  "'x'",
  "''",
  "'10'",
  "null",
  "true",
  "undefined",
  "[]",
  "[1, 'a']",
  "({ k: 1 })",
  "'a-b'",
  "NaN",
  "3n",
];
const BINARY = [
  "+",
  "-",
  "*",
  "/",
  "%",
  "**",
  "==",
  "!=",
  "===",
  "!==",
  "<",
  "<=",
  ">",
  ">=",
  "&&",
  "||",
  "??",
  "&",
  "|",
  "^",
  "<<",
  ">>",
  ">>>",
];
const ARRAY_CALLS = [
  "map(x => x)",
  "map((x, i) => i)",
  "filter(x => x)",
  "find(x => x > 2)",
  "findIndex(x => x === 1)",
  "some(x => x)",
  "every(x => x)",
  "reduce((a, b) => a + b)",
  "reduce((a, b) => a + b, '')",
  "join()",
  "join('-')",
  "slice(1)",
  "slice(-2, -1)",
  "concat([9], 8)",
  "includes(1)",
  "indexOf(1)",
  "lastIndexOf(1)",
  "at(-1)",
  "flat()",
  "flat(Infinity)",
  "flatMap(x => [x, x])",
  "toSorted()",
  "toSorted((a, b) => String(a).length - String(b).length)",
  "toReversed()",
  "with(0, 'w')",
  "findLast(x => x)",
  "findLastIndex(x => x)",
  "reduceRight((a, b) => a + b, 0)",
  "toString()",
];
const STRING_CALLS = [
  "toUpperCase()",
  "toLowerCase()",
  "trim()",
  "split(',')",
  "split('')",
  "split(',', 2)",
  "slice(1, -1)",
  "substring(3, 1)",
  "substr(-3, 2)",
  "indexOf('o')",
  "lastIndexOf('o')",
  "includes('lo')",
  "startsWith('He')",
  "endsWith('d')",
  "padStart(15, '*')",
  "padEnd(3)",
  "repeat(2)",
  "replace('o', '0')",
  "replaceAll('o', '[$&]')",
  "replace('l', \"$'\")",
  "at(-2)",
  "charAt(1)",
  "charCodeAt(0)",
  "codePointAt(1)",
  "concat(1, [2])",
  "normalize('NFD')",
  "localeCompare('b')",
  "trimEnd()",
];
const STATICS = [
  "Math.max(X, 1)",
  "Math.min(X)",
  "Math.floor(X)",
  "Math.round(X)",
  "Math.abs(X)",
  "Math.sign(X)",
  "Math.pow(X, 2)",
  "Math.trunc(X)",
  "JSON.stringify(X)",
  "JSON.stringify(X, null, 2)",
  "String(X)",
  "Number(X)",
  "Boolean(X)",
  "parseInt(X)",
  "parseFloat(X)",
  "isNaN(X)",
  "encodeURIComponent(X)",
  "encodeURI(X)",
  "decodeURIComponent(encodeURIComponent(X))",
  "Array.isArray(X)",
  "Object.keys(X ?? {})",
  "Object.values(X ?? {})",
  "Object.entries(X ?? {})",
  "Number.isInteger(X)",
  "typeof X",
  "[...(X ?? [])]",
  "({ ...X })",
  "`<${X}>`",
  "!X",
  "-X",
  "~X",
  "+X",
  "X?.length",
  "X?.[0]",
  "(X ? 'yes' : 'no')",
];

const { expression } = fc.letrec<{ expression: string }>((tie) => ({
  expression: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(...ATOMS),
    fc.tuple(tie("expression"), fc.constantFrom(...BINARY), tie("expression")).map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc
      .tuple(fc.constantFrom("xs", "ws", "ys", "[3, 'b', null]", "o.c"), fc.constantFrom(...ARRAY_CALLS))
      .map(([a, call]) => `${a}.${call}`),
    fc
      .tuple(fc.constantFrom("s", "e", "csv", "o.b", "'a,b'"), fc.constantFrom(...STRING_CALLS))
      .map(([a, call]) => `${a}.${call}`),
    fc.tuple(fc.constantFrom(...STATICS), tie("expression")).map(([form, x]) => form.replaceAll("X", `(${x})`)),
  ),
}));

const native = (code: string, variables: Record<string, unknown>) =>
  // eslint-disable-next-line no-new-func
  new Function(...Object.keys(variables), `"use strict"; return (${code});`)(...Object.values(variables));

/** What the sandbox refuses on purpose, so the two cannot be compared (see docs/sandbox.md). */
const isDeliberateRefusal = (error: SandboxError) =>
  error.kind === "limit" || /not JSON|holes|not a function|is a method/.test(error.message);

describe("differential: the sandbox against V8", () => {
  test("random expressions evaluate to the same value", () => {
    let compared = 0;
    fc.assert(
      fc.property(expression, (code) => {
        let ours: { ok: true; value: unknown } | { ok: false; error: SandboxError };
        try {
          ours = { ok: true, value: evaluate(code, data()).value };
        } catch (error) {
          expect(error).toBeInstanceOf(SandboxError);
          ours = { ok: false, error: error as SandboxError };
        }
        let theirs: { ok: true; value: unknown } | { ok: false; error: unknown };
        try {
          theirs = { ok: true, value: native(code, data()) };
        } catch (error) {
          theirs = { ok: false, error };
        }
        if (ours.ok) {
          expect(theirs.ok, `${code}: V8 threw ${theirs.ok ? "" : String(theirs.error)}`).toBe(true);
          const expected = (theirs as { value: unknown }).value;
          expect(JSON.stringify(ours.value), code).toBe(JSON.stringify(expected));
          compared++;
        } else if (!isDeliberateRefusal(ours.error)) {
          expect(theirs.ok, `${code}: the sandbox threw ${ours.error.kind}: ${ours.error.message}, V8 did not`).toBe(
            false,
          );
        }
      }),
      { numRuns: 1500, seed: 42 },
    );
    expect(compared).toBeGreaterThan(500);
  });
});
