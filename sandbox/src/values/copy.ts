import { types } from "node:util";
import type { JsonValue } from "@autograms/graph";
import { SandboxError, limitError, type SandboxErrorKind } from "../errors.js";
import type { SandboxLimits } from "../limits.js";
import { Closure, isArray, type GuestObject, type Value } from "./types.js";

/**
 * What copying charges against: the evaluation's budget. The interpreter's `Context` is one; it
 * is named here by what the copier uses, since the context calls the copier.
 */
export interface Budget {
  readonly limits: Readonly<SandboxLimits>;
  /** JSON characters stored so far, against maxMemorySize. */
  stored: number;
  charge(steps: number): void;
  alloc(bytes: number): void;
  flatten(text: string): void;
  checkArrayLength(length: number): void;
  checkStringLength(length: number): void;
}

const { getPrototypeOf, keys, getOwnPropertyDescriptor, defineProperty, create, prototype: ObjectPrototype } = Object;
const ArrayPrototype = Array.prototype;
const isFinite = Number.isFinite;
const isProxy = types.isProxy;
const log10 = Math.log10;
const abs = Math.abs;

/**
 * Copies data coming from the host (variables, tool results, parsed JSON) into sandbox form:
 * fresh arrays and null-prototype objects. Everything else (functions, class instances,
 * accessors, cycles, symbols) is refused. `strict` reads through property descriptors so that
 * a host getter is refused rather than run.
 */
export function fromHost(
  ctx: Budget,
  value: unknown,
  what: string,
  kind: SandboxErrorKind,
  strict = kind === "host",
): Value {
  // Reading a host object's properties is work like any other: charged per element, looked at by the clock.
  const ancestors = new Set<object>();
  const refuse = (message: string) => new SandboxError(kind, `${what} ${message}`);

  const copy = (v: unknown, depth: number): Value => {
    switch (typeof v) {
      case "string":
        // The agent's own variables may hold long texts; what the code builds from them is sized.
        if (kind !== "type") ctx.checkStringLength(v.length);
        return v;
      case "number":
      case "boolean":
      case "undefined":
        return v;
      case "object":
        break;
      default:
        throw refuse(`holds a ${typeof v}, which is not plain data`);
    }
    if (v === null) return null;
    if (depth >= ctx.limits.maxDepth) {
      throw limitError("maxDepth", `${what} is nested deeper than ${ctx.limits.maxDepth} levels (maxDepth)`);
    }
    if (ancestors.has(v)) throw refuse("contains a cycle, which is not plain data");
    // A Proxy answers every question with host code: refused before any trap runs.
    if (strict && isProxy(v)) throw refuse("holds a Proxy, which is not plain data");
    ctx.charge(1);
    ancestors.add(v);
    let out: Value;
    if (isArray(v)) {
      if (getPrototypeOf(v) !== ArrayPrototype) throw refuse("holds an array-like object that is not plain data");
      const length = v.length;
      ctx.checkArrayLength(length);
      ctx.charge(strict ? 2 * length : length);
      const array = new Array<Value>(length);
      for (let i = 0; i < length; i++) {
        if (strict) {
          const descriptor = getOwnPropertyDescriptor(v, i);
          if (descriptor === undefined) throw refuse("holds an array with holes, which is not plain data");
          if (!("value" in descriptor)) throw refuse("holds a getter, which is not plain data");
          array[i] = copy(descriptor.value, depth + 1);
        } else array[i] = copy(v[i], depth + 1);
      }
      out = array;
    } else {
      const prototype = getPrototypeOf(v);
      if (prototype !== ObjectPrototype && prototype !== null) {
        throw refuse("holds an object that is not plain data (a class instance)");
      }
      const names = keys(v);
      ctx.charge(strict ? 2 * names.length : names.length);
      ctx.alloc(16 + 16 * names.length);
      const object: GuestObject = create(null);
      for (const name of names) {
        if (strict) {
          const descriptor = getOwnPropertyDescriptor(v, name)!;
          if (!("value" in descriptor)) throw refuse("holds a getter, which is not plain data");
          object[name] = copy(descriptor.value, depth + 1);
        } else object[name] = copy((v as Record<string, unknown>)[name], depth + 1);
      }
      out = object;
    }
    ancestors.delete(v);
    return out;
  };

  return copy(value, 0);
}

/** Where a value copied out goes: the agent's memory (what the evaluation returns), or a tool. */
type Destination = "store" | "tool";

/**
 * A value the evaluation returns or writes, copied out for the agent's memory: bounded by
 * maxVariableSize alone and, with everything else the evaluation stores, by maxMemorySize.
 */
export function storeOut(ctx: Budget, value: Value, what: string): JsonValue | undefined {
  return toHost(ctx, value, what, "store");
}

/** A variable the evaluation wrote, copied out as `storeOut` does; its name goes into an error's message only. */
export function storeVariable(ctx: Budget, value: Value, name: string): JsonValue | undefined {
  return toHost(ctx, value, name, "store", variableLabel);
}

const variableLabel = (name: string) => `the variable '${name}'`;

/** A tool argument, copied out: the host copies it again (structured clone), so that is charged. */
export function toolArgument(ctx: Budget, value: Value, what: string): JsonValue | undefined {
  return toHost(ctx, value, what, "tool");
}

/** Characters of a number's JSON text, without building it. */
function numberLength(n: number): number {
  if (n === 0) return 1;
  if (n !== Math.trunc(n) || abs(n) >= 1e21) return 24;
  const a = abs(n);
  // Small whole numbers (counters, indexes) without a logarithm.
  if (a < 1e6) return (n < 0 ? 1 : 0) + (a < 10 ? 1 : a < 100 ? 2 : a < 1e3 ? 3 : a < 1e4 ? 4 : a < 1e5 ? 5 : 6);
  return (n < 0 ? 2 : 1) + Math.floor(log10(a));
}

/**
 * Copies a sandbox value out as JSON data with ordinary prototypes. Memory must survive a JSON
 * round trip, so what JSON cannot hold is refused (functions, BigInt, NaN and the infinities,
 * `undefined` array elements, cycles); `undefined` object properties are dropped, as JSON drops
 * them. Its JSON size is measured as it goes (data shared inside it counts each time it appears,
 * as it will when serialised), and the walk stops as soon as it is too large.
 */
function toHost(
  ctx: Budget,
  value: Value,
  what: string,
  destination: Destination,
  label?: (what: string) => string,
): JsonValue | undefined {
  // Most values code stores are numbers, strings and booleans: sized at once, without the walk.
  const primitive = primitiveSize(ctx, value);
  if (primitive >= 0) {
    if (primitive > ctx.limits.maxVariableSize) throw tooLarge(ctx, label ? label(what) : what);
    account(ctx, primitive, destination);
    return value as JsonValue | undefined;
  }
  return copied(ctx, value, label ? label(what) : what, destination);
}

/** Characters of JSON of a value that is JSON without copying (-1 for the rest, which the walk copies or refuses). */
function primitiveSize(ctx: Budget, v: Value): number {
  switch (typeof v) {
    case "string":
      ctx.flatten(v);
      return v.length + 2;
    case "boolean":
      return 5;
    case "number":
      return isFinite(v) ? numberLength(v) : -1;
    case "undefined":
      return 0;
    default:
      return v === null ? 4 : -1;
  }
}

const tooLarge = (ctx: Budget, what: string) =>
  limitError(
    "maxVariableSize",
    `${what} would be larger than ${ctx.limits.maxVariableSize} characters of JSON (maxVariableSize)`,
  );

/** What a value handed out costs: a tool's argument is copied again by the host; stored JSON counts towards maxMemorySize. */
function account(ctx: Budget, size: number, destination: Destination): void {
  if (destination === "tool") {
    ctx.charge(size >> 4);
    ctx.alloc(2 * size);
  } else {
    ctx.stored += size;
    const max = ctx.limits.maxMemorySize;
    if (ctx.stored > max) {
      throw limitError(
        "maxMemorySize",
        `the evaluation would store more than ${max} characters of JSON (maxMemorySize)`,
      );
    }
  }
}

function copied(ctx: Budget, value: Value, what: string, destination: Destination): JsonValue | undefined {
  let ancestors: Set<object> | null = null;
  const refuse = (message: string) => new SandboxError("type", `${what} ${message}`);
  const limit = ctx.limits.maxVariableSize;
  let size = 0;
  const grow = (characters: number) => {
    size += characters;
    if (size > limit) throw tooLarge(ctx, what);
  };

  const copy = (v: Value, depth: number): JsonValue | undefined => {
    switch (typeof v) {
      case "string":
        // Serialising memory flattens a rope this evaluation built: that copy is charged here.
        ctx.flatten(v);
        grow(v.length + 2);
        return v;
      case "boolean":
        grow(5);
        return v;
      case "number":
        if (!isFinite(v)) throw refuse(`would hold ${v}, which is not JSON`);
        grow(numberLength(v));
        return v;
      case "undefined":
        return undefined;
      case "bigint":
        throw refuse("would hold a BigInt, which is not JSON: convert it with String() or Number()");
      case "object":
        break;
      default:
        throw refuse("would hold a value that is not JSON");
    }
    if (v === null) {
      grow(4);
      return null;
    }
    if (v instanceof Closure) throw refuse("would hold a function: only data can be stored");
    if (depth >= ctx.limits.maxDepth) {
      throw limitError("maxDepth", `${what} is nested deeper than ${ctx.limits.maxDepth} levels (maxDepth)`);
    }
    ancestors ??= new Set();
    if (ancestors.has(v)) throw refuse("contains a cycle, which is not JSON");
    ctx.charge(1);
    ancestors.add(v);
    let out: JsonValue;
    if (isArray(v)) {
      const length = v.length;
      ctx.charge(length);
      ctx.alloc(16 + 8 * length);
      grow(length + 1);
      const array = new Array<JsonValue>(length);
      for (let i = 0; i < length; i++) {
        const element = copy(v[i], depth + 1);
        if (element === undefined) throw refuse("would hold undefined inside an array, which is not JSON: use null");
        array[i] = element;
      }
      out = array;
    } else {
      const names = keys(v);
      ctx.charge(names.length);
      ctx.alloc(16 + 16 * names.length);
      grow(2);
      const object: Record<string, JsonValue> = {};
      for (const name of names) {
        const element = copy((v as GuestObject)[name], depth + 1);
        if (element === undefined) continue;
        grow(name.length + 4);
        if (name === "__proto__")
          defineProperty(object, name, { value: element, enumerable: true, writable: true, configurable: true });
        else object[name] = element;
      }
      out = object;
    }
    ancestors.delete(v);
    return out;
  };

  const out = copy(value, 0);
  account(ctx, size, destination);
  return out;
}
