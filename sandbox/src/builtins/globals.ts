import { SandboxError, rangeError, typeError } from "../errors.js";
import type { Context } from "../values/context.js";
import { checkKeyName, describe, toInteger, toNumber, toStr } from "../values/convert.js";
import { iterate } from "../values/iterate.js";
import { getMember } from "../values/properties.js";
import { copyValues, isArray, isPlainObject, type GuestObject, type Value } from "../values/types.js";
import { CONSOLE_FUNCTIONS } from "./console.js";
import { DATE_FUNCTIONS } from "./date.js";
import { callback } from "./helpers.js";
import { JSON_FUNCTIONS } from "./json.js";
import { mapped } from "./strings.js";
import { table, type BuiltinEntry, type Namespace } from "./registry.js";

/**
 * The global names of the sandbox: the namespaces `Math`, `JSON`, `Object`, `Array`, `Number`,
 * `String`, `console`, `Date` (only the members listed here) and a few functions. They are fixed when code is
 * compiled and cannot be shadowed or reassigned.
 */

const M = Math;
const nativeParseInt = parseInt;
const nativeURI = { encodeURIComponent, decodeURIComponent, encodeURI, decodeURI };
const nativeParseFloat = parseFloat;
const fromCharCode = String.fromCharCode;
const fromCodePoint = String.fromCodePoint;
const create = Object.create;
const keys = Object.keys;
const hasOwn = Object.hasOwn;

/** Folds pairwise rather than spreading: a spread of thousands of arguments could overflow the stack. */
function extreme(ctx: Context, args: Value[], pair: (a: number, b: number) => number, initial: number): number {
  ctx.charge(args.length);
  let result = initial;
  for (const arg of args) result = pair(result, toNumber(ctx, arg));
  return result;
}

const unaryMath = (fn: (x: number) => number): BuiltinEntry => ({
  call: (ctx, _r, [x]) => fn(toNumber(ctx, x)),
});

const MATH_FUNCTIONS = table("Math.", {
  abs: unaryMath(M.abs),
  acos: unaryMath(M.acos),
  acosh: unaryMath(M.acosh),
  asin: unaryMath(M.asin),
  asinh: unaryMath(M.asinh),
  atan: unaryMath(M.atan),
  atanh: unaryMath(M.atanh),
  cbrt: unaryMath(M.cbrt),
  ceil: unaryMath(M.ceil),
  clz32: unaryMath(M.clz32),
  cos: unaryMath(M.cos),
  cosh: unaryMath(M.cosh),
  exp: unaryMath(M.exp),
  expm1: unaryMath(M.expm1),
  floor: unaryMath(M.floor),
  fround: unaryMath(M.fround),
  log: unaryMath(M.log),
  log10: unaryMath(M.log10),
  log1p: unaryMath(M.log1p),
  log2: unaryMath(M.log2),
  round: unaryMath(M.round),
  sign: unaryMath(M.sign),
  sin: unaryMath(M.sin),
  sinh: unaryMath(M.sinh),
  sqrt: unaryMath(M.sqrt),
  tan: unaryMath(M.tan),
  tanh: unaryMath(M.tanh),
  trunc: unaryMath(M.trunc),
  atan2: { call: (ctx, _r, [y, x]) => M.atan2(toNumber(ctx, y), toNumber(ctx, x)) },
  imul: { call: (ctx, _r, [a, b]) => M.imul(toNumber(ctx, a), toNumber(ctx, b)) },
  pow: { call: (ctx, _r, [a, b]) => M.pow(toNumber(ctx, a), toNumber(ctx, b)) },
  max: { call: (ctx, _r, args) => extreme(ctx, args, M.max, -Infinity) },
  min: { call: (ctx, _r, args) => extreme(ctx, args, M.min, Infinity) },
  hypot: { call: (ctx, _r, args) => extreme(ctx, args, M.hypot, 0) },
  random: { call: (ctx) => ctx.random() },
});

const MATH_CONSTANTS = new Map<string, Value>(
  (["E", "LN10", "LN2", "LOG10E", "LOG2E", "PI", "SQRT1_2", "SQRT2"] as const).map((name) => [name, M[name]]),
);

/** Own keys as JavaScript sees them for Object.keys and friends. */
function ownKeys(ctx: Context, value: Value, name: string): string[] {
  if (value === null || value === undefined) throw typeError(`${name}: cannot convert ${value} to an object`);
  let names: string[];
  if (typeof value === "string" || isArray(value)) {
    ctx.checkArrayLength(value.length);
    names = Array.from({ length: value.length }, (_, i) => String(i));
  } else if (typeof value === "object") names = keys(value);
  else names = [];
  ctx.checkArrayLength(names.length);
  ctx.charge(names.length);
  return names;
}

const OBJECT_FUNCTIONS = table("Object.", {
  keys: { call: (ctx, _r, [value]) => ownKeys(ctx, value, "Object.keys") },
  values: { call: (ctx, _r, [value]) => ownKeys(ctx, value, "Object.values").map((key) => getMember(ctx, value, key)) },
  entries: {
    call: (ctx, _r, [value]) => {
      const names = ownKeys(ctx, value, "Object.entries");
      ctx.alloc(32 * names.length);
      return names.map((key) => [key, getMember(ctx, value, key)]);
    },
  },
  fromEntries: {
    call: (ctx, _r, [entries]) => {
      const out: GuestObject = create(null);
      const items = iterate(ctx, entries);
      ctx.charge(items.length);
      ctx.alloc(16 + 16 * items.length);
      for (const entry of items) {
        if (typeof entry !== "object" || entry === null)
          throw typeError(`Object.fromEntries: each entry must be a [key, value] pair, not ${describe(entry)}`);
        const key = getMember(ctx, entry, 0);
        if (typeof key !== "string" && typeof key !== "number")
          throw typeError(`Object.fromEntries: a key must be a string or a number, not ${describe(key)}`);
        if (typeof key === "string") ctx.key(key);
        out[checkKeyName(String(key))] = getMember(ctx, entry, 1);
      }
      return out;
    },
  },
  hasOwn: {
    call: (ctx, _r, [value, key]) => {
      if (value === null || value === undefined) throw typeError(`Object.hasOwn: cannot convert ${value} to an object`);
      const name = toStr(ctx, key);
      ctx.key(name);
      if (typeof value === "string" || isArray(value)) {
        const index = Number(name);
        return (
          name === "length" || (String(index) === name && Number.isInteger(index) && index >= 0 && index < value.length)
        );
      }
      return isPlainObject(value) && hasOwn(value, name);
    },
  },
});

function arrayFrom(ctx: Context, args: Value[]): Value {
  const source = args[0];
  const fn = args.length > 1 && args[1] !== undefined ? callback(args, 1, "Array.from") : null;
  let items: readonly Value[];
  if (isPlainObject(source)) {
    // An array-like such as { length: 3 }: sized before anything is built.
    const length = toInteger(ctx, getMember(ctx, source, "length"));
    ctx.checkArrayLength(Math.max(0, length));
    items = Array.from({ length: Math.max(0, length) }, (_, i) => getMember(ctx, source, i));
  } else if (source === null || source === undefined) {
    throw typeError(`Array.from: ${source} is not iterable`);
  } else if (typeof source === "number" || typeof source === "boolean") {
    items = [];
  } else items = iterate(ctx, source);
  ctx.checkArrayLength(items.length);
  ctx.charge(items.length);
  if (fn === null) return copyValues(items);
  const out = new Array<Value>(items.length);
  for (let i = 0; i < items.length; i++) out[i] = ctx.invoke(fn, [items[i], i]);
  return out;
}

const ARRAY_FUNCTIONS = table("Array.", {
  isArray: { call: (_ctx, _r, [value]) => isArray(value) },
  from: { callbacks: [1], call: (ctx, _r, args) => arrayFrom(ctx, args) },
  of: {
    call: (ctx, _r, args) => {
      ctx.checkArrayLength(args.length);
      return args.slice();
    },
  },
});

const NUMBER_FUNCTIONS = table("Number.", {
  isInteger: { call: (_ctx, _r, [value]) => Number.isInteger(value) },
  isSafeInteger: { call: (_ctx, _r, [value]) => Number.isSafeInteger(value) },
  isFinite: { call: (_ctx, _r, [value]) => Number.isFinite(value) },
  isNaN: { call: (_ctx, _r, [value]) => Number.isNaN(value) },
  parseFloat: { call: (ctx, _r, [text]) => parseFloatOf(ctx, text) },
  parseInt: { call: (ctx, _r, [text, radix]) => parseIntOf(ctx, text, radix) },
});

const NUMBER_CONSTANTS = new Map<string, Value>(
  (
    [
      "MAX_SAFE_INTEGER",
      "MIN_SAFE_INTEGER",
      "MAX_VALUE",
      "MIN_VALUE",
      "EPSILON",
      "POSITIVE_INFINITY",
      "NEGATIVE_INFINITY",
      "NaN",
    ] as const
  ).map((name) => [name, Number[name]]),
);

/** Builds text from code units or points in chunks, for the same reason. */
function fromCodes(
  ctx: Context,
  args: Value[],
  build: (...codes: number[]) => string,
  check?: (code: number) => void,
): string {
  ctx.checkStringLength(args.length);
  ctx.charge(args.length);
  const codes = args.map((arg) => toNumber(ctx, arg));
  if (check) codes.forEach(check);
  const parts: string[] = [];
  for (let i = 0; i < codes.length; i += 4096) parts.push(build(...codes.slice(i, i + 4096)));
  const text = parts.join("");
  ctx.checkStringLength(text.length);
  ctx.alloc(2 * text.length);
  return text;
}

const STRING_FUNCTIONS = table("String.", {
  fromCharCode: { call: (ctx, _r, args) => fromCodes(ctx, args, fromCharCode) },
  fromCodePoint: {
    call: (ctx, _r, args) =>
      fromCodes(ctx, args, fromCodePoint, (point) => {
        if (!Number.isInteger(point) || point < 0 || point > 0x10ffff) {
          throw new SandboxError("range", `String.fromCodePoint: invalid code point ${point}`);
        }
      }),
  },
});

function parseFloatOf(ctx: Context, text: Value): number {
  const source = toStr(ctx, text);
  ctx.scan(source, source.length, 4);
  return nativeParseFloat(source);
}

function parseIntOf(ctx: Context, text: Value, radix: Value): number {
  const source = toStr(ctx, text);
  ctx.scan(source, source.length, 4);
  return nativeParseInt(source, radix === undefined ? undefined : toInteger(ctx, radix));
}

export const NAMESPACES: ReadonlyMap<string, Namespace> = new Map<string, Namespace>([
  ["Math", { functions: MATH_FUNCTIONS, constants: MATH_CONSTANTS }],
  ["JSON", { functions: JSON_FUNCTIONS, constants: new Map() }],
  ["Object", { functions: OBJECT_FUNCTIONS, constants: new Map() }],
  ["Array", { functions: ARRAY_FUNCTIONS, constants: new Map() }],
  ["Number", { functions: NUMBER_FUNCTIONS, constants: NUMBER_CONSTANTS }],
  ["String", { functions: STRING_FUNCTIONS, constants: new Map() }],
  ["console", { functions: CONSOLE_FUNCTIONS, constants: new Map() }],
  ["Date", { functions: DATE_FUNCTIONS, constants: new Map() }],
]);

/**
 * `encodeURIComponent` and friends: pure, and bounded as a case mapping is (a code unit becomes
 * at most 9 characters, `%E2%82%AC`). A malformed text is JavaScript's URIError, as a RangeError.
 */
const uriFunction = (name: keyof typeof nativeURI): BuiltinEntry => ({
  call: (ctx, _r, [value]) =>
    mapped(ctx, toStr(ctx, value), name.startsWith("encode") ? 9 : 1, (text) => {
      try {
        return nativeURI[name](text);
      } catch {
        throw rangeError(
          `${name}: ${name.startsWith("encode") ? "the text holds a lone surrogate" : "the text is not a well-formed URI escape"}`,
        );
      }
    }),
});

export const GLOBAL_FUNCTIONS = table("", {
  String: { call: (ctx, _r, args) => (args.length === 0 ? "" : toStr(ctx, args[0])) },
  Number: {
    call: (ctx, _r, args) => {
      if (args.length === 0) return 0;
      return typeof args[0] === "bigint" ? Number(args[0]) : toNumber(ctx, args[0]);
    },
  },
  Boolean: { call: (_ctx, _r, [value]) => !!value },
  parseInt: { call: (ctx, _r, [text, radix]) => parseIntOf(ctx, text, radix) },
  parseFloat: { call: (ctx, _r, [text]) => parseFloatOf(ctx, text) },
  isNaN: { call: (ctx, _r, [value]) => Number.isNaN(toNumber(ctx, value)) },
  isFinite: { call: (ctx, _r, [value]) => Number.isFinite(toNumber(ctx, value)) },
  encodeURIComponent: uriFunction("encodeURIComponent"),
  decodeURIComponent: uriFunction("decodeURIComponent"),
  encodeURI: uriFunction("encodeURI"),
  decodeURI: uriFunction("decodeURI"),
});
