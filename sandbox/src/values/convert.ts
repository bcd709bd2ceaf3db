import { SandboxError, limitError, typeError } from "../errors.js";
import type { Context } from "./context.js";
import { Closure, isArray, type Value } from "./types.js";

/**
 * JavaScript's conversions, done by the interpreter: natives only ever see primitives, so no
 * conversion can call into guest- or host-defined code (`valueOf`, `toString`,
 * `Symbol.toPrimitive` and `toJSON` are plain data here), and every string built is sized first.
 */

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

export function checkKeyName(name: string): string {
  if (FORBIDDEN_KEYS.has(name)) {
    throw new SandboxError("unsupported", `the property name '${name}' is not allowed`);
  }
  return name;
}

/** A property key: a string, or an integer (array and string indices stay numbers). */
export function toKey(ctx: Context, value: Value): string | number {
  if (typeof value === "string") {
    // Checking the name hashes it, and using it as a key internalizes a copy: paid first.
    ctx.key(value);
    return checkKeyName(value);
  }
  if (typeof value === "number" && Number.isInteger(value)) return value === 0 ? 0 : value;
  throw typeError(`a property key must be a string or an integer, not ${describe(value)}`);
}

/** The array index a key denotes, or -1. */
export function arrayIndex(key: string | number): number {
  if (typeof key === "number") return key >= 0 ? key : -1;
  const length = key.length;
  if (length === 0 || length > 10) return -1;
  const first = key.charCodeAt(0);
  if (first === 48) return length === 1 ? 0 : -1;
  for (let i = 0; i < length; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
  }
  return Number(key);
}

export function describe(value: Value): string {
  if (value === null) return "null";
  if (isArray(value)) return "an array";
  if (value instanceof Closure) return "a function";
  switch (typeof value) {
    case "object":
      return "an object";
    case "string":
      return "a string";
    case "number":
      return `the number ${value}`;
    case "bigint":
      return "a BigInt";
    case "boolean":
      return `${value}`;
    default:
      return "undefined";
  }
}

export type Primitive = undefined | null | boolean | number | string | bigint;

export function toPrimitive(ctx: Context, value: Value): Primitive {
  if (typeof value !== "object" || value === null) return value;
  if (isArray(value)) return join(ctx, value, ",", 0, null);
  if (value instanceof Closure) throw typeError("a function cannot be converted to a value");
  return "[object Object]";
}

export function toStr(ctx: Context, value: Value): string {
  switch (typeof value) {
    case "string":
      return value;
    case "object":
      if (value !== null) return toStr(ctx, toPrimitive(ctx, value));
      return "null";
    default:
      return String(value);
  }
}

export function toNumber(ctx: Context, value: Value): number {
  const primitive = toPrimitive(ctx, value);
  if (typeof primitive === "number") return primitive;
  if (typeof primitive === "bigint") throw typeError("cannot convert a BigInt to a number here: use Number()");
  if (typeof primitive === "string") ctx.scan(primitive, primitive.length, 4);
  return Number(primitive);
}

/** A number or a BigInt, for arithmetic. */
export function toNumeric(ctx: Context, value: Value): number | bigint {
  const primitive = toPrimitive(ctx, value);
  if (typeof primitive === "number" || typeof primitive === "bigint") return primitive;
  if (typeof primitive === "string") ctx.scan(primitive, primitive.length, 4);
  return Number(primitive);
}

/** ToIntegerOrInfinity, for positions and counts given to built-ins. */
export function toInteger(ctx: Context, value: Value): number {
  const number = toNumber(ctx, value);
  if (number !== number) return 0;
  return Math.trunc(number) + 0;
}

export function typeOf(value: Value): string {
  return value instanceof Closure ? "function" : typeof value;
}

/**
 * Array.prototype.join over sandbox data: nested arrays join with commas, null and undefined
 * are empty, a cycle is empty (as in V8); the total length is known before any string is built.
 */
export function join(
  ctx: Context,
  array: Value[],
  separator: string,
  depth: number,
  seen: Set<Value[]> | null,
): string {
  if (depth >= ctx.limits.maxDepth)
    throw limitError("maxDepth", `array nested deeper than ${ctx.limits.maxDepth} levels (maxDepth)`);
  const length = array.length;
  if (length === 0) return "";
  ctx.charge(length);
  const maxLength = ctx.limits.maxStringLength;
  let total = separator.length * (length - 1);
  if (total > maxLength) ctx.checkStringLength(total);
  const parts = new Array<string>(length);
  for (let i = 0; i < length; i++) {
    const element = array[i];
    let part: string;
    if (element === null || element === undefined) part = "";
    else if (isArray(element)) {
      seen ??= new Set([array]);
      if (seen.has(element)) part = "";
      else {
        seen.add(element);
        part = join(ctx, element, ",", depth + 1, seen);
        seen.delete(element);
      }
    } else {
      part = toStr(ctx, element);
      ctx.flatten(part);
    }
    parts[i] = part;
    total += part.length;
    if (total > maxLength) ctx.checkStringLength(total);
  }
  ctx.alloc(2 * total);
  return parts.join(separator);
}

/** `a + b` on two strings, sized before it is built. */
export function concat(ctx: Context, a: string, b: string): string {
  const length = a.length + b.length;
  if (length > ctx.limits.maxStringLength) ctx.checkStringLength(length);
  // V8 concatenates lazily (a rope): the smaller side is the fair price of a concatenation, and
  // copying the whole rope out is paid when something flattens it (see Context.flatten).
  ctx.alloc(32 + 2 * (a.length < b.length ? a.length : b.length));
  ctx.rope(length);
  return a + b;
}
