import { limitError, rangeError, typeError } from "../errors.js";
import type { BinaryOperator } from "../syntax/ast.js";
import type { Context } from "./context.js";
import { concat, toNumber, toNumeric, toPrimitive, toStr, type Primitive } from "./convert.js";
import { hasMember } from "./properties.js";
import { toKey } from "./convert.js";
import type { Value } from "./types.js";

/**
 * The operators, with JavaScript's semantics on sandbox values. Each has a fast path for the
 * common case (two numbers, two strings); the general path converts operands to primitives
 * first (see convert.ts) so the native operator never sees an object.
 */
export type BinaryFunction = (ctx: Context, a: Value, b: Value) => Value;

const mixError = () => typeError("cannot mix BigInt and other types: convert explicitly");

export function bitLength(value: bigint): number {
  if (value < 0n) value = -value;
  return value === 0n ? 0 : value.toString(16).length * 4;
}

function checkBits(ctx: Context, value: bigint): bigint {
  if (bitLength(value) > ctx.limits.maxBigIntBits + 4) {
    throw limitError("maxBigIntBits", `BigInt larger than ${ctx.limits.maxBigIntBits} bits (maxBigIntBits)`);
  }
  return value;
}

function shiftLeft(ctx: Context, value: bigint, count: bigint): bigint {
  if (count <= 0n) return value >> -count;
  const max = ctx.limits.maxBigIntBits;
  if (count > BigInt(max) || bitLength(value) + Number(count) > max + 4) {
    throw limitError("maxBigIntBits", `BigInt larger than ${max} bits (maxBigIntBits)`);
  }
  return value << count;
}

function bigintOperation(ctx: Context, operator: string, x: bigint, y: bigint): bigint {
  switch (operator) {
    case "/":
    case "%":
      if (y === 0n) throw rangeError("division by zero");
      return operator === "/" ? x / y : x % y;
    case "**": {
      if (y < 0n) throw rangeError("a BigInt exponent must not be negative");
      if (x === 0n || x === 1n || x === -1n || y <= 1n) return x ** y;
      const max = ctx.limits.maxBigIntBits;
      if (y > BigInt(max) || (bitLength(x) - 4) * Number(y) > max) {
        throw limitError("maxBigIntBits", `BigInt larger than ${max} bits (maxBigIntBits)`);
      }
      return checkBits(ctx, x ** y);
    }
    case "<<":
      return shiftLeft(ctx, x, y);
    case ">>":
      return shiftLeft(ctx, x, -y);
    case ">>>":
      throw typeError("BigInts have no unsigned right shift: use >>");
    case "+":
      return checkBits(ctx, x + y);
    case "-":
      return checkBits(ctx, x - y);
    case "*":
      return checkBits(ctx, x * y);
    case "&":
      return x & y;
    case "|":
      return x | y;
    default:
      return x ^ y;
  }
}

function numberOperation(operator: string, x: number, y: number): number {
  switch (operator) {
    case "+":
      return x + y;
    case "-":
      return x - y;
    case "*":
      return x * y;
    case "/":
      return x / y;
    case "%":
      return x % y;
    case "**":
      return x ** y;
    case "<<":
      return x << y;
    case ">>":
      return x >> y;
    case ">>>":
      return x >>> y;
    case "&":
      return x & y;
    case "|":
      return x | y;
    default:
      return x ^ y;
  }
}

function arithmetic(ctx: Context, operator: string, a: Value, b: Value): number | bigint {
  const x = toNumeric(ctx, a);
  const y = toNumeric(ctx, b);
  if (typeof x === "bigint" || typeof y === "bigint") {
    if (typeof x !== "bigint" || typeof y !== "bigint") throw mixError();
    return bigintOperation(ctx, operator, x, y);
  }
  return numberOperation(operator, x, y);
}

function add(ctx: Context, a: Value, b: Value): Value {
  if (typeof a === "number" && typeof b === "number") return a + b;
  if (typeof a === "string" && typeof b === "string") return concat(ctx, a, b);
  const x = toPrimitive(ctx, a);
  const y = toPrimitive(ctx, b);
  if (typeof x === "string" || typeof y === "string") return concat(ctx, toStr(ctx, x), toStr(ctx, y));
  return arithmetic(ctx, "+", x, y);
}

const numeric =
  (operator: string): BinaryFunction =>
  (ctx, a, b) =>
    typeof a === "number" && typeof b === "number" ? numberOperation(operator, a, b) : arithmetic(ctx, operator, a, b);

/** Comparing a BigInt with a long string would parse the string: bounded like any BigInt. */
function guardBigintString(ctx: Context, x: Primitive, y: Primitive): void {
  const text =
    typeof x === "bigint" && typeof y === "string" ? y : typeof y === "bigint" && typeof x === "string" ? x : null;
  if (text !== null && text.length > ctx.limits.maxBigIntBits / 3 + 8) {
    throw limitError(
      "maxBigIntBits",
      `comparing a BigInt with a string longer than a ${ctx.limits.maxBigIntBits}-bit number (maxBigIntBits)`,
    );
  }
}

/**
 * Before two primitives are compared: strings are read (flattened first) up to the shorter one's
 * length, and a string compared with a number is parsed.
 */
function chargeComparison(ctx: Context, x: Primitive, y: Primitive): void {
  if (typeof x === "string") {
    if (typeof y === "string") {
      ctx.flatten(x);
      ctx.flatten(y);
      ctx.charge((x.length < y.length ? x.length : y.length) >> 4);
    } else ctx.scan(x, x.length, 4);
  } else if (typeof y === "string") ctx.scan(y, y.length, 4);
}

/** Before `===` on two strings: V8 compares (and flattens) them only when their lengths are equal. */
export function chargeEquality(ctx: Context, a: string, b: string): void {
  if (a.length === b.length && a.length >= 13) {
    ctx.flatten(a);
    ctx.flatten(b);
    ctx.charge(a.length >> 4);
  }
}

const relational =
  (compare: (x: Primitive, y: Primitive) => boolean): BinaryFunction =>
  (ctx, a, b) => {
    if (typeof a === "number" && typeof b === "number") return compare(a, b);
    const x = toPrimitive(ctx, a);
    const y = toPrimitive(ctx, b);
    guardBigintString(ctx, x, y);
    chargeComparison(ctx, x, y);
    return compare(x, y);
  };

/** `===`, with the cost of comparing two long strings charged first. */
export function strictEquals(ctx: Context, a: Value, b: Value): boolean {
  if (typeof a === "string" && typeof b === "string") chargeEquality(ctx, a, b);
  return a === b;
}

export function looseEquals(ctx: Context, a: Value, b: Value): boolean {
  const aObject = typeof a === "object" && a !== null;
  const bObject = typeof b === "object" && b !== null;
  if (aObject && bObject) return a === b;
  if (aObject) {
    if (b === null || b === undefined) return false;
    a = toPrimitive(ctx, a);
  } else if (bObject) {
    if (a === null || a === undefined) return false;
    b = toPrimitive(ctx, b);
  }
  guardBigintString(ctx, a as Primitive, b as Primitive);
  if (typeof a === "string" && typeof b === "string") chargeEquality(ctx, a, b);
  // A string equals null or undefined never, and is compared with anything else as a number.
  else if (a !== null && a !== undefined && b !== null && b !== undefined)
    chargeComparison(ctx, a as Primitive, b as Primitive);
  // eslint-disable-next-line eqeqeq
  // biome-ignore lint/suspicious/noDoubleEquals: the sandbox's `==` is JavaScript's loose equality, on primitives only
  return (a as Primitive) == (b as Primitive);
}

/* eslint-disable eqeqeq */
export const BINARY: Record<BinaryOperator, BinaryFunction> = {
  "+": add,
  "-": numeric("-"),
  "*": numeric("*"),
  "/": numeric("/"),
  "%": numeric("%"),
  "**": numeric("**"),
  "<<": numeric("<<"),
  ">>": numeric(">>"),
  ">>>": numeric(">>>"),
  "&": numeric("&"),
  "|": numeric("|"),
  "^": numeric("^"),
  "<": relational((x, y) => (x as number) < (y as number)),
  ">": relational((x, y) => (x as number) > (y as number)),
  "<=": relational((x, y) => (x as number) <= (y as number)),
  ">=": relational((x, y) => (x as number) >= (y as number)),
  "==": looseEquals,
  "!=": (ctx, a, b) => !looseEquals(ctx, a, b),
  "===": strictEquals,
  "!==": (ctx, a, b) => !strictEquals(ctx, a, b),
  in: (ctx, a, b) => hasMember(b, toKey(ctx, a)),
};

export function negate(ctx: Context, value: Value): Value {
  if (typeof value === "number") return -value;
  const x = toNumeric(ctx, value);
  return -x;
}

export function plus(ctx: Context, value: Value): Value {
  return typeof value === "number" ? value : toNumber(ctx, value);
}

export function bitNot(ctx: Context, value: Value): Value {
  const x = toNumeric(ctx, value);
  return typeof x === "bigint" ? ~x : ~x;
}
