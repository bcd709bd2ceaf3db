import type { Context } from "../values/context.js";
import { toStr } from "../values/convert.js";
import type { Value } from "../values/types.js";

/**
 * A stable merge sort (the order JavaScript's sort guarantees) that charges a step per
 * comparison, so a guest comparator runs only under the interpreter's budget. Without a
 * comparator, values compare as strings and `undefined` sorts last, as in JavaScript.
 */
export function sortValues(ctx: Context, values: Value[], compare?: (a: Value, b: Value) => number): Value[] {
  if (compare === undefined) {
    // Each value's text is computed once; values are sorted by it, as pairs (a Map keyed by the
    // values would hash long strings at a cost nobody charged).
    const pairs: [string, Value][] = [];
    for (const value of values) if (value !== undefined) pairs.push([toStr(ctx, value), value]);
    ctx.alloc(40 * pairs.length);
    const byText = (a: [string, Value], b: [string, Value]) => {
      const x = a[0];
      const y = b[0];
      // Comparing strings reads them up to the shorter one's length.
      if (x.length >= 16 && y.length >= 16) {
        ctx.flatten(x);
        ctx.flatten(y);
        ctx.charge((x.length < y.length ? x.length : y.length) >> 4);
      }
      return x < y ? -1 : x > y ? 1 : 0;
    };
    const sorted = mergeSort(ctx, pairs, byText).map((pair) => pair[1]);
    for (let i = sorted.length; i < values.length; i++) sorted.push(undefined);
    return sorted;
  }
  return mergeSort(ctx, values, compare);
}

function mergeSort<T>(ctx: Context, values: T[], compare: (a: T, b: T) => number): T[] {
  let source = values;
  let target = new Array<T>(values.length);
  const length = values.length;
  for (let width = 1; width < length; width *= 2) {
    ctx.charge(length);
    for (let left = 0; left < length; left += 2 * width) {
      const middle = Math.min(left + width, length);
      const right = Math.min(left + 2 * width, length);
      let i = left;
      let j = middle;
      let k = left;
      while (i < middle && j < right) target[k++] = compare(source[j]!, source[i]!) < 0 ? source[j++]! : source[i++]!;
      while (i < middle) target[k++] = source[i++]!;
      while (j < right) target[k++] = source[j++]!;
    }
    [source, target] = [target, source];
  }
  return source;
}
