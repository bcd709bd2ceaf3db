import { limitError, typeError } from "../errors.js";
import type { Context } from "../values/context.js";
import { join, toInteger, toNumber, toStr } from "../values/convert.js";
import { chargeEquality } from "../values/operators.js";
import { type Closure, copyValues, isArray, type Value } from "../values/types.js";
import { callback, relative } from "./helpers.js";
import { table } from "./registry.js";
import { sortValues } from "./sort.js";

/**
 * Array methods, written as loops over sandbox arrays: every element visited is a step, every
 * array built is sized before it grows, and callbacks are invoked by the interpreter.
 */

type A = Value[];

const strictlyEqual = (a: Value, b: Value) => a === b;
const sameValueZero = (a: Value, b: Value) => a === b || (a !== a && b !== b);

/**
 * Searches an array for a value, as `indexOf` (strict equality) or `includes` (SameValueZero):
 * comparing a long string with an element as long reads both, charged element by element.
 */
function locate(
  ctx: Context,
  array: A,
  search: Value,
  from: number,
  to: number,
  step: 1 | -1,
  same: (a: Value, b: Value) => boolean,
): number {
  ctx.charge(Math.abs(to - from));
  const long = typeof search === "string" && search.length >= 13;
  for (let i = from; step > 0 ? i < to && i < array.length : i > to; i += step) {
    const element = array[i];
    if (long && typeof element === "string") chargeEquality(ctx, element, search as string);
    if (same(element, search)) return i;
  }
  return -1;
}

function copyRange(ctx: Context, array: A, from: number, to: number): A {
  const length = to > from ? to - from : 0;
  ctx.checkArrayLength(length);
  ctx.charge(length);
  return copyValues(array, from, to);
}

function indexArgument(ctx: Context, value: Value, length: number, fallback: number): number {
  return value === undefined ? fallback : relative(toInteger(ctx, value), length);
}

/** Calls `fn(element, index, array)` for each element present when the method started. */
function each(
  ctx: Context,
  array: A,
  fn: Closure,
  visit: (result: Value, element: Value, index: number) => boolean,
): void {
  const length = array.length;
  ctx.charge(length);
  for (let i = 0; i < length && i < array.length; i++) {
    const element = array[i];
    if (visit(ctx.invoke(fn, [element, i, array]), element, i)) return;
  }
}

function eachFromEnd(
  ctx: Context,
  array: A,
  fn: Closure,
  visit: (result: Value, element: Value, index: number) => boolean,
): void {
  ctx.charge(array.length);
  for (let i = array.length - 1; i >= 0; i--) {
    if (i >= array.length) continue;
    const element = array[i];
    if (visit(ctx.invoke(fn, [element, i, array]), element, i)) return;
  }
}

function flatten(ctx: Context, source: A, depth: number, out: A, level: number): void {
  if (level >= ctx.limits.maxDepth)
    throw limitError("maxDepth", `array nested deeper than ${ctx.limits.maxDepth} levels (maxDepth)`);
  ctx.charge(source.length);
  for (const element of source) {
    if (isArray(element) && depth > 0) flatten(ctx, element, depth - 1, out, level + 1);
    else {
      if (out.length >= ctx.limits.maxArrayLength) ctx.checkArrayLength(out.length + 1);
      out.push(element);
    }
  }
  ctx.alloc(8 * source.length);
}

function reduce(ctx: Context, array: A, args: Value[], name: string, fromEnd: boolean): Value {
  const fn = callback(args, 0, name);
  const length = array.length;
  let i = fromEnd ? length - 1 : 0;
  const step = fromEnd ? -1 : 1;
  let accumulator: Value;
  if (args.length >= 2) accumulator = args[1];
  else {
    if (length === 0) throw typeError(`${name} of an empty array with no initial value`);
    accumulator = array[i];
    i += step;
  }
  ctx.charge(length);
  for (; i >= 0 && i < length && i < array.length; i += step)
    accumulator = ctx.invoke(fn, [accumulator, array[i], i, array]);
  return accumulator;
}

function comparator(ctx: Context, args: Value[], name: string): ((a: Value, b: Value) => number) | undefined {
  const compare = args[0];
  if (compare === undefined) return undefined;
  const fn = callback(args, 0, name);
  return (a, b) => {
    const result = toNumber(ctx, ctx.invoke(fn, [a, b]));
    return result === result ? result : 0;
  };
}

function grow(ctx: Context, array: A, added: number): void {
  ctx.growArray(array.length, added);
  ctx.charge(added);
}

export const ARRAY_METHODS = table("", {
  at: {
    call: (ctx, a, [index]) => {
      const array = a as A;
      const n = toInteger(ctx, index);
      const i = n < 0 ? array.length + n : n;
      return i >= 0 && i < array.length ? array[i] : undefined;
    },
  },
  indexOf: {
    call: (ctx, a, [search, from]) => {
      const array = a as A;
      return locate(ctx, array, search, indexArgument(ctx, from, array.length, 0), array.length, 1, strictlyEqual);
    },
  },
  lastIndexOf: {
    call: (ctx, a, args) => {
      const array = a as A;
      const start = args.length > 1 ? toInteger(ctx, args[1]) : array.length - 1;
      return locate(
        ctx,
        array,
        args[0],
        start < 0 ? array.length + start : Math.min(start, array.length - 1),
        -1,
        -1,
        strictlyEqual,
      );
    },
  },
  includes: {
    call: (ctx, a, [search, from]) => {
      const array = a as A;
      return locate(ctx, array, search, indexArgument(ctx, from, array.length, 0), array.length, 1, sameValueZero) >= 0;
    },
  },
  slice: {
    call: (ctx, a, [from, to]) => {
      const array = a as A;
      return copyRange(
        ctx,
        array,
        indexArgument(ctx, from, array.length, 0),
        indexArgument(ctx, to, array.length, array.length),
      );
    },
  },
  concat: {
    call: (ctx, a, args) => {
      const array = a as A;
      let length = array.length;
      for (const item of args) length += isArray(item) ? item.length : 1;
      ctx.checkArrayLength(length);
      ctx.charge(length);
      const out = copyValues(array);
      for (const item of args) {
        if (isArray(item)) for (const element of item) out.push(element);
        else out.push(item);
      }
      return out;
    },
  },
  join: {
    call: (ctx, a, [separator]) => join(ctx, a as A, separator === undefined ? "," : toStr(ctx, separator), 0, null),
  },
  toString: { call: (ctx: Context, a: Value) => join(ctx, a as A, ",", 0, null) },
  map: {
    callbacks: [0],
    call: (ctx, a, args) => {
      const array = a as A;
      const fn = callback(args, 0, "map");
      ctx.checkArrayLength(array.length);
      const out = new Array<Value>(array.length);
      each(ctx, array, fn, (result, _element, i) => {
        out[i] = result;
        return false;
      });
      return out;
    },
  },
  filter: {
    callbacks: [0],
    call: (ctx, a, args) => {
      const out: A = [];
      each(ctx, a as A, callback(args, 0, "filter"), (result, element) => {
        if (result) out.push(element);
        return false;
      });
      ctx.alloc(8 * out.length);
      return out;
    },
  },
  flatMap: {
    callbacks: [0],
    call: (ctx, a, args) => {
      const out: A = [];
      each(ctx, a as A, callback(args, 0, "flatMap"), (result) => {
        if (isArray(result)) {
          grow(ctx, out, result.length);
          for (const element of result) out.push(element);
        } else {
          grow(ctx, out, 1);
          out.push(result);
        }
        return false;
      });
      return out;
    },
  },
  forEach: {
    callbacks: [0],
    call: (ctx, a, args) => {
      each(ctx, a as A, callback(args, 0, "forEach"), () => false);
      return undefined;
    },
  },
  find: {
    callbacks: [0],
    call: (ctx, a, args) => {
      let found: Value;
      each(ctx, a as A, callback(args, 0, "find"), (result, element) => (result ? ((found = element), true) : false));
      return found;
    },
  },
  findIndex: {
    callbacks: [0],
    call: (ctx, a, args) => {
      let found = -1;
      each(ctx, a as A, callback(args, 0, "findIndex"), (result, _element, i) =>
        result ? ((found = i), true) : false,
      );
      return found;
    },
  },
  findLast: {
    callbacks: [0],
    call: (ctx, a, args) => {
      let found: Value;
      eachFromEnd(ctx, a as A, callback(args, 0, "findLast"), (result, element) =>
        result ? ((found = element), true) : false,
      );
      return found;
    },
  },
  findLastIndex: {
    callbacks: [0],
    call: (ctx, a, args) => {
      let found = -1;
      eachFromEnd(ctx, a as A, callback(args, 0, "findLastIndex"), (result, _element, i) =>
        result ? ((found = i), true) : false,
      );
      return found;
    },
  },
  some: {
    callbacks: [0],
    call: (ctx, a, args) => {
      let found = false;
      each(ctx, a as A, callback(args, 0, "some"), (result) => (result ? (found = true) : false));
      return found;
    },
  },
  every: {
    callbacks: [0],
    call: (ctx, a, args) => {
      let all = true;
      each(ctx, a as A, callback(args, 0, "every"), (result) => (result ? false : ((all = false), true)));
      return all;
    },
  },
  reduce: { callbacks: [0], call: (ctx, a, args) => reduce(ctx, a as A, args, "reduce", false) },
  reduceRight: { callbacks: [0], call: (ctx, a, args) => reduce(ctx, a as A, args, "reduceRight", true) },
  flat: {
    call: (ctx, a, [depth]) => {
      const levels = depth === undefined ? 1 : toInteger(ctx, depth);
      const out: A = [];
      flatten(ctx, a as A, levels, out, 0);
      return out;
    },
  },
  toSorted: {
    callbacks: [0],
    call: (ctx, a, args) => {
      const array = a as A;
      return sortValues(ctx, copyRange(ctx, array, 0, array.length), comparator(ctx, args, "toSorted"));
    },
  },
  toReversed: {
    call: (ctx, a) => {
      const array = a as A;
      return copyRange(ctx, array, 0, array.length).reverse();
    },
  },
  with: {
    call: (ctx, a, [index, value]) => {
      const array = a as A;
      const n = toInteger(ctx, index);
      const i = n < 0 ? array.length + n : n;
      if (i < 0 || i >= array.length) throw typeError(`with: index ${n} is out of range`);
      const out = copyRange(ctx, array, 0, array.length);
      out[i] = value;
      return out;
    },
  },
  // Methods that change their array (only ever a copy the evaluation owns).
  push: {
    mutates: true,
    call: (ctx, a, args) => {
      const array = a as A;
      grow(ctx, array, args.length);
      for (const item of args) array.push(item);
      return array.length;
    },
  },
  pop: { mutates: true, call: (_ctx, a) => (a as A).pop() },
  shift: {
    mutates: true,
    call: (ctx, a) => {
      ctx.charge((a as A).length);
      return (a as A).shift();
    },
  },
  unshift: {
    mutates: true,
    call: (ctx, a, args) => {
      const array = a as A;
      grow(ctx, array, args.length);
      ctx.charge(array.length);
      const tail = array.slice();
      array.length = 0;
      for (const item of args) array.push(item);
      for (const item of tail) array.push(item);
      return array.length;
    },
  },
  splice: {
    mutates: true,
    call: (ctx, a, args) => {
      const array = a as A;
      const start = indexArgument(ctx, args[0], array.length, 0);
      const count =
        args.length === 0
          ? 0
          : args.length === 1
            ? array.length - start
            : Math.min(Math.max(toInteger(ctx, args[1]), 0), array.length - start);
      const items = args.slice(2);
      grow(ctx, array, Math.max(items.length - count, 0));
      ctx.charge(array.length);
      const removed = array.slice(start, start + count);
      const tail = array.slice(start + count);
      array.length = start;
      for (const item of items) array.push(item);
      for (const item of tail) array.push(item);
      return removed;
    },
  },
  sort: {
    mutates: true,
    callbacks: [0],
    call: (ctx, a, args) => {
      const array = a as A;
      const sorted = sortValues(ctx, array.slice(), comparator(ctx, args, "sort"));
      for (let i = 0; i < sorted.length; i++) array[i] = sorted[i];
      return array;
    },
  },
  reverse: {
    mutates: true,
    call: (ctx, a) => {
      ctx.charge((a as A).length);
      return (a as A).reverse();
    },
  },
  fill: {
    mutates: true,
    call: (ctx, a, [value, from, to]) => {
      const array = a as A;
      const start = indexArgument(ctx, from, array.length, 0);
      const end = indexArgument(ctx, to, array.length, array.length);
      ctx.charge(end - start);
      for (let i = start; i < end; i++) array[i] = value;
      return array;
    },
  },
});
