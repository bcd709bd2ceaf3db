import { SandboxError, rangeError } from "../errors.js";
import type { Context } from "../values/context.js";
import { toInteger, toNumber, toStr } from "../values/convert.js";
import { Closure, type Value } from "../values/types.js";
import { relative, uncurry } from "./helpers.js";
import { table, type BuiltinEntry } from "./registry.js";

/**
 * String methods. Lengths are known before any native builds a string (`repeat`, `padStart`,
 * `split`, `replaceAll`...), so no native is ever asked for more than maxStringLength.
 * Regular expressions do not exist in the sandbox: patterns are plain strings.
 */

const S = String.prototype;
const slice = uncurry(S.slice);
const indexOf = uncurry(S.indexOf);
const lastIndexOf = uncurry(S.lastIndexOf);
const includes = uncurry(S.includes);
const startsWith = uncurry(S.startsWith);
const endsWith = uncurry(S.endsWith);
const substring = uncurry(S.substring);
const toUpperCase = uncurry(S.toUpperCase);
const toLowerCase = uncurry(S.toLowerCase);
const trim = uncurry(S.trim);
const trimStart = uncurry(S.trimStart);
const trimEnd = uncurry(S.trimEnd);
const padStart = uncurry(S.padStart);
const padEnd = uncurry(S.padEnd);
const repeat = uncurry(S.repeat);
const split = uncurry(S.split) as unknown as (self: string, separator: string, limit?: number) => string[];
const charCodeAt = uncurry(S.charCodeAt);
const codePointAt = uncurry(S.codePointAt);
const normalize = uncurry(S.normalize);
const localeCompare = uncurry(S.localeCompare) as (self: string, that: string) => number;

const fromCharCode = String.fromCharCode;

/**
 * What a search, a comparison or a copy costs, charged before the native runs (see Context.scan):
 * a search with a pattern can cost tens of nanoseconds a character at worst, a plain read or
 * copy a few, ICU's collation and normalisation more than a step each.
 */
const SEARCH = 2;
const READ = 4;

const search = (ctx: Context, text: string, pattern: string) => {
  ctx.flatten(pattern);
  ctx.scan(text, text.length, SEARCH);
};

function position(ctx: Context, value: Value, fallback: number): number {
  return value === undefined ? fallback : toInteger(ctx, value);
}

/** A string a native is about to build in full: its length checked, its memory and its copying charged. */
function sized(ctx: Context, length: number): void {
  ctx.checkStringLength(length);
  ctx.alloc(2 * length);
  ctx.charge(length >> READ);
}

/**
 * A string mapped character by character (case mapping, normalisation), which may come out
 * longer than it went in (`'ß'.toUpperCase()` is 'SS'; a compatibility decomposition can give 18
 * characters for one): its memory is charged at the longest it can be before the native runs,
 * its length checked once it is known.
 */
export function mapped(ctx: Context, text: string, growth: number, map: (text: string) => string): string {
  ctx.scan(text, text.length, READ);
  ctx.alloc(2 * growth * text.length);
  const out = map(text);
  ctx.checkStringLength(out.length);
  return out;
}

function pad(ctx: Context, text: string, args: Value[], atStart: boolean): string {
  const target = toInteger(ctx, args[0]);
  if (target <= text.length) return text;
  const filler = args[1] === undefined ? " " : toStr(ctx, args[1]);
  if (filler === "") return text;
  sized(ctx, target);
  ctx.flatten(text);
  ctx.flatten(filler);
  return atStart ? padStart(text, target, filler) : padEnd(text, target, filler);
}

/** A replacement text (`$$`, `$&`, `` $` `` and `$'` as in JavaScript), split once into its parts. */
type Segment = string | "$&" | "$`" | "$'";

function segmentsOf(replacement: string): Segment[] {
  if (!replacement.includes("$")) return [replacement];
  const segments: Segment[] = [];
  let literal = 0;
  for (let i = 0; i < replacement.length - 1; i++) {
    if (replacement.charCodeAt(i) !== 36) continue;
    const next = replacement[i + 1]!;
    if (next !== "$" && next !== "&" && next !== "`" && next !== "'") continue;
    if (i > literal) segments.push(slice(replacement, literal, i));
    segments.push(next === "$" ? "$" : (`$${next}` as Segment));
    literal = i + 2;
    i++;
  }
  if (literal < replacement.length) segments.push(slice(replacement, literal));
  return segments;
}

/** The text one match is replaced with: its parts joined, each one a slice (a cheap view) of the text or the replacement. */
function expand(
  ctx: Context,
  segments: readonly Segment[],
  text: string,
  match: string,
  at: number,
  add: (piece: string) => void,
): void {
  ctx.charge(segments.length);
  for (const segment of segments) {
    if (segment === "$&") add(match);
    else if (segment === "$`") add(slice(text, 0, at));
    else if (segment === "$'") add(slice(text, at + match.length));
    else add(segment);
  }
}

function replace(ctx: Context, text: string, args: Value[], all: boolean): string {
  const pattern = toStr(ctx, args[0]);
  const replacer = args[1];
  let segments: Segment[] | null = null;
  if (!(replacer instanceof Closure)) {
    const fixed = toStr(ctx, replacer);
    ctx.scan(fixed, fixed.length, READ);
    segments = segmentsOf(fixed);
  }
  ctx.flatten(text);
  ctx.flatten(pattern);
  const parts: string[] = [];
  let total = 0;
  let from = 0;
  let searchFrom = 0;
  const add = (piece: string) => {
    total += piece.length;
    ctx.checkStringLength(total);
    parts.push(piece);
  };
  for (;;) {
    const at = searchFrom > text.length ? -1 : indexOf(text, pattern, searchFrom);
    ctx.charge(1 + (((at < 0 ? text.length : at) - searchFrom) >> SEARCH));
    if (at < 0) break;
    add(slice(text, from, at));
    if (segments === null) add(toStr(ctx, ctx.invoke(replacer as Closure, [pattern, at, text])));
    else expand(ctx, segments, text, pattern, at, add);
    from = at + pattern.length;
    searchFrom = pattern.length === 0 ? at + 1 : from;
    if (!all) break;
  }
  if (parts.length === 0) return text;
  add(slice(text, from));
  ctx.alloc(2 * total);
  return parts.join("");
}

/** A string's code units in reverse order (pairs reversed too: only ever searched, never shown). */
function reversed(ctx: Context, text: string): string {
  sized(ctx, text.length);
  ctx.flatten(text);
  const parts: string[] = [];
  const codes = new Array<number>(4096);
  for (let end = text.length; end > 0; end -= codes.length) {
    const count = Math.min(codes.length, end);
    if (count < codes.length) codes.length = count;
    for (let i = 0; i < count; i++) codes[i] = charCodeAt(text, end - 1 - i);
    parts.push(fromCharCode.apply(null, codes));
  }
  return parts.join("");
}

/**
 * `lastIndexOf`: V8 searches backwards comparing the whole pattern at each position (time
 * proportional to the text's length times the pattern's). A long pattern is searched forwards
 * instead, in the reversed text, where the native search takes linear time.
 */
function lastIndexOfString(ctx: Context, text: string, args: Value[]): number {
  const pattern = toStr(ctx, args[0]);
  const number = args.length > 1 ? toNumber(ctx, args[1]) : NaN;
  const start = number !== number ? text.length : Math.min(Math.max(Math.trunc(number), 0), text.length);
  if (pattern.length <= 16) {
    ctx.flatten(pattern);
    ctx.scan(text, text.length * Math.max(pattern.length, 1), 5);
    return lastIndexOf(text, pattern, start);
  }
  const end = Math.min(start + pattern.length, text.length);
  if (end < pattern.length) return -1;
  const head = slice(text, 0, end);
  ctx.scan(head, end, SEARCH);
  const at = indexOf(reversed(ctx, head), reversed(ctx, pattern));
  return at < 0 ? -1 : end - at - pattern.length;
}

function splitString(ctx: Context, text: string, args: Value[]): Value {
  const limit = args[1] === undefined ? 2 ** 32 - 1 : toInteger(ctx, args[1]) >>> 0;
  if (args[0] === undefined) return limit === 0 ? [] : [text];
  const separator = toStr(ctx, args[0]);
  if (limit === 0) return [];
  let count = separator === "" ? text.length : Math.floor(text.length / separator.length) + 1;
  search(ctx, text, separator);
  if (count > ctx.limits.maxArrayLength && separator !== "") {
    // The bound is loose for a long separator: count the pieces before asking the native.
    ctx.charge(1 + (text.length >> SEARCH));
    count = 1;
    for (
      let at = indexOf(text, separator);
      at >= 0 && count <= limit;
      at = indexOf(text, separator, at + separator.length)
    )
      count++;
  }
  ctx.checkArrayLength(Math.min(count, limit));
  ctx.charge(Math.min(count, limit));
  ctx.alloc(2 * text.length);
  return split(text, separator, limit);
}

function noRegExp(name: string): BuiltinEntry {
  return {
    unavailable: true,
    call: (): Value => {
      throw new SandboxError(
        "unsupported",
        `${name} needs regular expressions, which the sandbox does not support: use includes, indexOf, split or replaceAll`,
      );
    },
  };
}

export const STRING_METHODS = table("", {
  // Reading one character flattens a rope the evaluation built (see Context.flatten).
  at: {
    call: (ctx, s, [index]) => {
      const text = s as string;
      const n = toInteger(ctx, index);
      const i = n < 0 ? text.length + n : n;
      if (i < 0 || i >= text.length) return undefined;
      ctx.flatten(text);
      return text[i];
    },
  },
  charAt: {
    call: (ctx, s, [index]) => {
      const i = position(ctx, index, 0);
      if (i < 0 || i >= (s as string).length) return "";
      ctx.flatten(s as string);
      return (s as string)[i]!;
    },
  },
  charCodeAt: {
    call: (ctx, s, [index]) => {
      const i = position(ctx, index, 0);
      ctx.flatten(s as string);
      return charCodeAt(s as string, i);
    },
  },
  codePointAt: {
    call: (ctx, s, [index]) => {
      const i = position(ctx, index, 0);
      ctx.flatten(s as string);
      return codePointAt(s as string, i);
    },
  },
  indexOf: {
    call: (ctx, s, [pattern, from]) => {
      const needle = toStr(ctx, pattern);
      const start = position(ctx, from, 0);
      search(ctx, s as string, needle);
      return indexOf(s as string, needle, start);
    },
  },
  lastIndexOf: { call: (ctx, s, args) => lastIndexOfString(ctx, s as string, args) },
  includes: {
    call: (ctx, s, [pattern, from]) => {
      const needle = toStr(ctx, pattern);
      const start = position(ctx, from, 0);
      search(ctx, s as string, needle);
      return includes(s as string, needle, start);
    },
  },
  startsWith: {
    call: (ctx, s, [pattern, from]) => {
      const needle = toStr(ctx, pattern);
      const start = position(ctx, from, 0);
      ctx.flatten(s as string);
      ctx.scan(needle, needle.length, READ);
      return startsWith(s as string, needle, start);
    },
  },
  endsWith: {
    call: (ctx, s, [pattern, end]) => {
      const needle = toStr(ctx, pattern);
      const stop = position(ctx, end, (s as string).length);
      ctx.flatten(s as string);
      ctx.scan(needle, needle.length, READ);
      return endsWith(s as string, needle, stop);
    },
  },
  // A slice of a flat string is a view (a sliced string); slicing a rope flattens it first.
  slice: {
    call: (ctx, s, [from, to]) => {
      const text = s as string;
      const start = relative(position(ctx, from, 0), text.length);
      const end = relative(position(ctx, to, text.length), text.length);
      ctx.flatten(text);
      return slice(text, start, end);
    },
  },
  substring: {
    call: (ctx, s, [from, to]) => {
      const start = position(ctx, from, 0);
      const end = position(ctx, to, (s as string).length);
      ctx.flatten(s as string);
      return substring(s as string, start, end);
    },
  },
  substr: {
    call: (ctx, s, [from, length]) => {
      const text = s as string;
      const start = relative(position(ctx, from, 0), text.length);
      const count = length === undefined ? text.length - start : Math.max(0, position(ctx, length, 0));
      ctx.flatten(text);
      return slice(text, start, Math.min(start + count, text.length));
    },
  },
  toUpperCase: { call: (ctx, s) => mapped(ctx, s as string, 3, toUpperCase) },
  toLowerCase: { call: (ctx, s) => mapped(ctx, s as string, 3, toLowerCase) },
  trim: {
    call: (ctx, s) => {
      ctx.scan(s as string, (s as string).length, READ);
      return trim(s as string);
    },
  },
  trimStart: {
    call: (ctx, s) => {
      ctx.scan(s as string, (s as string).length, READ);
      return trimStart(s as string);
    },
  },
  trimEnd: {
    call: (ctx, s) => {
      ctx.scan(s as string, (s as string).length, READ);
      return trimEnd(s as string);
    },
  },
  padStart: { call: (ctx, s, args) => pad(ctx, s as string, args, true) },
  padEnd: { call: (ctx, s, args) => pad(ctx, s as string, args, false) },
  repeat: {
    call: (ctx, s, [count]) => {
      const text = s as string;
      const n = toInteger(ctx, count);
      if (n < 0 || n === Infinity) throw rangeError(`invalid count value: ${n}`);
      sized(ctx, text.length * n);
      ctx.flatten(text);
      return repeat(text, n);
    },
  },
  concat: {
    call: (ctx, s, args) => {
      let text = s as string;
      for (const arg of args) {
        const part = toStr(ctx, arg);
        ctx.checkStringLength(text.length + part.length);
        text += part;
      }
      ctx.alloc(2 * text.length);
      ctx.rope(text.length);
      return text;
    },
  },
  split: { call: (ctx, s, args) => splitString(ctx, s as string, args) },
  replace: { callbacks: [1], call: (ctx, s, args) => replace(ctx, s as string, args, false) },
  replaceAll: { callbacks: [1], call: (ctx, s, args) => replace(ctx, s as string, args, true) },
  // ICU's collation reads both strings, at more than a step's cost a character.
  localeCompare: {
    call: (ctx, s, [that]) => {
      const other = toStr(ctx, that);
      ctx.scan(other, 0, 0);
      ctx.scan(s as string, (s as string).length + other.length, 0);
      return localeCompare(s as string, other);
    },
  },
  // ICU's normalisation costs up to about two steps a character (decomposing forms).
  normalize: {
    call: (ctx, s, [form]) => {
      const name = form === undefined ? "NFC" : toStr(ctx, form);
      if (name !== "NFC" && name !== "NFD" && name !== "NFKC" && name !== "NFKD") {
        throw rangeError("the normalization form must be one of NFC, NFD, NFKC, NFKD");
      }
      ctx.scan(s as string, 2 * (s as string).length, 0);
      return mapped(ctx, s as string, name === "NFKC" || name === "NFKD" ? 18 : 4, (text) => normalize(text, name));
    },
  },
  toString: { call: (_ctx: Context, s: Value) => s },
  valueOf: { call: (_ctx, s) => s },
  match: noRegExp("match"),
  matchAll: noRegExp("matchAll"),
  search: noRegExp("search"),
});
