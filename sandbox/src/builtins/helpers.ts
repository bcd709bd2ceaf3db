import { typeError } from "../errors.js";
import { Closure, type Value } from "../values/types.js";

/** Methods of the intrinsics as plain functions, captured once: later changes to prototypes do not reach them. */
export const uncurry = <A extends unknown[], R>(method: (...args: A) => R): ((self: unknown, ...args: A) => R) =>
  Function.prototype.call.bind(method) as (self: unknown, ...args: A) => R;

export function callback(args: Value[], index: number, name: string): Closure {
  const fn = args[index];
  if (!(fn instanceof Closure))
    throw typeError(`${name} expects a function as argument ${index + 1}, as in ${name}(x => ...)`);
  return fn;
}

/** A relative position (negative counts from the end), clamped to [0, length]. */
export function relative(position: number, length: number): number {
  if (position < 0) return Math.max(length + position, 0);
  return Math.min(position, length);
}
