import { rangeError } from "../errors.js";
import type { Context } from "../values/context.js";
import { toInteger } from "../values/convert.js";
import type { Value } from "../values/types.js";
import { uncurry } from "./helpers.js";
import { table } from "./registry.js";

/** Methods of numbers, booleans and BigInts: each result is a short string or the value itself. */

const N = Number.prototype;
const toFixed = uncurry(N.toFixed);
const toPrecision = uncurry(N.toPrecision);
const toExponential = uncurry(N.toExponential);
const numberToString = uncurry(N.toString) as (self: number, radix?: number) => string;
const bigintToString = uncurry(BigInt.prototype.toString) as (self: bigint, radix?: number) => string;

function digits(ctx: Context, value: Value, min: number, max: number, what: string): number {
  const n = toInteger(ctx, value);
  if (n < min || n > max) throw rangeError(`${what} must be between ${min} and ${max}`);
  return n;
}

function radix(ctx: Context, value: Value): number {
  return value === undefined ? 10 : digits(ctx, value, 2, 36, "toString() radix");
}

export const NUMBER_METHODS = table("", {
  toFixed: { call: (ctx, n, [count]) => toFixed(n as number, digits(ctx, count, 0, 100, "toFixed() digits")) },
  toPrecision: {
    call: (ctx, n, [count]) =>
      count === undefined ? String(n) : toPrecision(n as number, digits(ctx, count, 1, 100, "toPrecision() argument")),
  },
  toExponential: {
    call: (ctx, n, [count]) =>
      count === undefined
        ? toExponential(n as number)
        : toExponential(n as number, digits(ctx, count, 0, 100, "toExponential() argument")),
  },
  toString: { call: (ctx: Context, n: Value, [base]: Value[]) => numberToString(n as number, radix(ctx, base)) },
  valueOf: { call: (_ctx, n) => n },
});

export const BOOLEAN_METHODS = table("", {
  toString: { call: (_ctx: Context, b: Value) => String(b) },
  valueOf: { call: (_ctx, b) => b },
});

export const BIGINT_METHODS = table("", {
  toString: { call: (ctx: Context, n: Value, [base]: Value[]) => bigintToString(n as bigint, radix(ctx, base)) },
  valueOf: { call: (_ctx, n) => n },
});
