import { typeError } from "../errors.js";
import type { Context } from "./context.js";
import { describe } from "./convert.js";
import { isArray, type Value } from "./types.js";

const arrayFrom = Array.from;

/**
 * The elements a spread or destructuring walks: an array (returned as is: read it, do not change
 * it) or a string's code points. Nothing else is iterable in the sandbox.
 */
export function iterate(ctx: Context, value: Value): readonly Value[] {
  if (isArray(value)) return value;
  if (typeof value === "string") {
    ctx.flatten(value);
    let count = value.length;
    if (count > ctx.limits.maxArrayLength) {
      ctx.charge(count >> 4);
      count = 0;
      for (let i = 0; i < value.length; i++) {
        const c = value.charCodeAt(i);
        if (c < 0xdc00 || c > 0xdfff || i === 0 || value.charCodeAt(i - 1) < 0xd800 || value.charCodeAt(i - 1) > 0xdbff)
          count++;
      }
    }
    ctx.checkArrayLength(count);
    ctx.charge(count);
    // Each character becomes a string of its own (V8 shares only those of one Latin-1 unit).
    ctx.alloc(24 * count);
    return arrayFrom(value);
  }
  throw typeError(`${describe(value)} is not iterable`);
}
