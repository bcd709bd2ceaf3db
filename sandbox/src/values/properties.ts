import { SandboxError, typeError, rangeError } from "../errors.js";
import type { Context } from "./context.js";
import { arrayIndex, describe } from "./convert.js";
import { Closure, isArray, type GuestObject, type Value } from "./types.js";

/**
 * Property access on sandbox data. Reads see own data only: an array's elements and length, a
 * string's characters and length, an object's own properties. Nothing is ever looked up on a
 * prototype. Keys reach here already checked (see `toKey`).
 */

const hasOwn = Object.hasOwn;

/** A key as a message shows it: a long one (data, not code) is cut short. */
export function shown(key: string | number): string {
  return typeof key === "string" && key.length > 60 ? `${key.slice(0, 57)}...` : String(key);
}
const getPrototypeOf = Object.getPrototypeOf;

export function getMember(ctx: Context, object: Value, key: string | number): Value {
  if (typeof object === "object" && object !== null) {
    if (isArray(object)) {
      if (key === "length") return object.length;
      const index = arrayIndex(key);
      return index >= 0 && index < object.length ? object[index] : undefined;
    }
    if (object instanceof Closure) return undefined;
    const name = typeof key === "number" ? String(key) : key;
    return hasOwn(object, name) ? object[name] : undefined;
  }
  if (typeof object === "string") {
    if (key === "length") return object.length;
    const index = arrayIndex(key);
    if (index < 0 || index >= object.length) return undefined;
    // Reading a character flattens a rope.
    ctx.flatten(object);
    return object[index];
  }
  if (object === null || object === undefined) {
    throw typeError(`cannot read properties of ${object} (reading '${shown(key)}')`);
  }
  return undefined;
}

export function setMember(ctx: Context, object: Value, key: string | number, value: Value): void {
  if (!ctx.mutates) throw new SandboxError("type", "internal: a write in a program compiled as read-only");
  if (value instanceof Closure) throw typeError("a function cannot be stored: only data can");
  if (typeof object !== "object" || object === null) {
    if (object === null || object === undefined)
      throw typeError(`cannot set properties of ${object} (setting '${shown(key)}')`);
    throw typeError(`cannot set property '${shown(key)}' on ${describe(object)}`);
  }
  if (isArray(object)) {
    const length = object.length;
    if (key === "length") {
      if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > length) {
        throw rangeError("an array's length can only be set to a smaller length (arrays cannot have holes)");
      }
      object.length = value;
      return;
    }
    const index = arrayIndex(key);
    if (index < 0) throw typeError(`arrays hold elements only: cannot set property '${shown(key)}'`);
    if (index > length) {
      throw rangeError(`cannot set element ${index} of an array of length ${length}: arrays cannot have holes`);
    }
    if (index === length) ctx.growArray(length, 1);
    object[index] = value;
    return;
  }
  if (object instanceof Closure || getPrototypeOf(object) !== null) {
    throw new SandboxError("type", "internal: a write to an object the sandbox does not own");
  }
  const name = typeof key === "number" ? String(key) : key;
  if (!hasOwn(object, name)) ctx.alloc(16);
  (object as GuestObject)[name] = value;
}

export function deleteMember(ctx: Context, object: Value, key: string | number): boolean {
  if (!ctx.mutates) throw new SandboxError("type", "internal: a write in a program compiled as read-only");
  if (typeof object !== "object" || object === null) {
    if (object === null || object === undefined) throw typeError(`cannot delete properties of ${object}`);
    throw typeError(`cannot delete property '${shown(key)}' of ${describe(object)}`);
  }
  if (isArray(object)) throw typeError("cannot delete array elements (arrays cannot have holes): use splice");
  if (object instanceof Closure || getPrototypeOf(object) !== null) {
    throw new SandboxError("type", "internal: a write to an object the sandbox does not own");
  }
  delete (object as GuestObject)[typeof key === "number" ? String(key) : key];
  return true;
}

/** The `in` operator: own data only. */
export function hasMember(object: Value, key: string | number): boolean {
  if (typeof object !== "object" || object === null || object instanceof Closure) {
    throw typeError(`cannot use 'in' to search for '${shown(key)}' in ${describe(object)}`);
  }
  if (isArray(object)) {
    if (key === "length") return true;
    const index = arrayIndex(key);
    return index >= 0 && index < object.length;
  }
  return hasOwn(object, typeof key === "number" ? String(key) : key);
}
