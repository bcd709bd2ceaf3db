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
    const defined = values.filter((value) => value !== undefined);
    const keys = new Map<Value, string>();
    for (const value of defined) if (!keys.has(value)) keys.set(value, toStr(ctx, value));
    const byText = (a: Value, b: Value) => {
      const x = keys.get(a)!;
      const y = keys.get(b)!;
      return x < y ? -1 : x > y ? 1 : 0;
    };
    const sorted = mergeSort(ctx, defined, byText);
    for (let i = sorted.length; i < values.length; i++) sorted.push(undefined);
    return sorted;
  }
  return mergeSort(ctx, values, compare);
}

function mergeSort(ctx: Context, values: Value[], compare: (a: Value, b: Value) => number): Value[] {
  let source = values;
  let target = new Array<Value>(values.length);
  const length = values.length;
  for (let width = 1; width < length; width *= 2) {
    ctx.charge(length);
    for (let left = 0; left < length; left += 2 * width) {
      const middle = Math.min(left + width, length);
      const right = Math.min(left + 2 * width, length);
      let i = left;
      let j = middle;
      let k = left;
      while (i < middle && j < right) target[k++] = compare(source[j], source[i]) < 0 ? source[j++] : source[i++];
      while (i < middle) target[k++] = source[i++];
      while (j < right) target[k++] = source[j++];
    }
    [source, target] = [target, source];
  }
  return source;
}
