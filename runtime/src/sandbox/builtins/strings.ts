import { SandboxError, rangeError } from "../errors.js";
import type { Context } from "../values/context.js";
import { toInteger, toStr } from "../values/convert.js";
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

const scan = (ctx: Context, text: string) => ctx.charge(1 + (text.length >> 4));

function position(ctx: Context, value: Value, fallback: number): number {
  return value === undefined ? fallback : toInteger(ctx, value);
}

function sized(ctx: Context, text: string): string {
  ctx.checkStringLength(text.length);
  ctx.alloc(2 * text.length);
  return text;
}

function pad(ctx: Context, text: string, args: Value[], atStart: boolean): string {
  const target = toInteger(ctx, args[0]);
  if (target <= text.length) return text;
  const filler = args[1] === undefined ? " " : toStr(ctx, args[1]);
  if (filler === "") return text;
  ctx.checkStringLength(target);
  ctx.alloc(2 * target);
  return atStart ? padStart(text, target, filler) : padEnd(text, target, filler);
}

/** The text `replace` inserts for one match: `$$`, `$&`, `` $` `` and `$'` as in JavaScript. */
function expandReplacement(ctx: Context, replacement: string, text: string, match: string, at: number): string {
  if (!replacement.includes("$")) return replacement;
  let out = "";
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    const next = replacement[i + 1];
    let piece = c;
    if (c === "$" && next !== undefined) {
      if (next === "$") piece = "$";
      else if (next === "&") piece = match;
      else if (next === "`") piece = slice(text, 0, at);
      else if (next === "'") piece = slice(text, at + match.length);
      if (piece !== c) i++;
    }
    ctx.checkStringLength(out.length + piece.length);
    out += piece;
  }
  return out;
}

function replace(ctx: Context, text: string, args: Value[], all: boolean): string {
  const pattern = toStr(ctx, args[0]);
  const replacer = args[1];
  const fixed = replacer instanceof Closure ? null : toStr(ctx, replacer);
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
    if (at < 0) break;
    ctx.charge(1 + ((at - searchFrom) >> 4));
    add(slice(text, from, at));
    add(fixed === null
      ? toStr(ctx, ctx.invoke(replacer as Closure, [pattern, at, text]))
      : expandReplacement(ctx, fixed, text, pattern, at));
    from = at + pattern.length;
    searchFrom = pattern.length === 0 ? at + 1 : from;
    if (!all) break;
  }
  if (parts.length === 0) return text;
  add(slice(text, from));
  ctx.alloc(2 * total);
  return parts.join("");
}

function splitString(ctx: Context, text: string, args: Value[]): Value {
  const limit = args[1] === undefined ? 2 ** 32 - 1 : toInteger(ctx, args[1]) >>> 0;
  if (args[0] === undefined) return limit === 0 ? [] : [text];
  const separator = toStr(ctx, args[0]);
  if (limit === 0) return [];
  let count = separator === "" ? text.length : Math.floor(text.length / separator.length) + 1;
  if (count > ctx.limits.maxArrayLength && separator !== "") {
    // The bound is loose for a long separator: count the pieces before asking the native.
    scan(ctx, text);
    count = 1;
    for (let at = indexOf(text, separator); at >= 0 && count <= limit; at = indexOf(text, separator, at + separator.length)) count++;
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
      throw new SandboxError("unsupported", `${name} needs regular expressions, which the sandbox does not support: use includes, indexOf, split or replaceAll`);
    },
  };
}

export const STRING_METHODS = table("", {
  at: { call: (ctx, s, [index]) => {
    const text = s as string;
    const n = toInteger(ctx, index);
    const i = n < 0 ? text.length + n : n;
    return i >= 0 && i < text.length ? text[i] : undefined;
  } },
  charAt: { call: (ctx, s, [index]) => {
    const i = position(ctx, index, 0);
    return i >= 0 && i < (s as string).length ? (s as string)[i]! : "";
  } },
  charCodeAt: { call: (ctx, s, [index]) => charCodeAt(s as string, position(ctx, index, 0)) },
  codePointAt: { call: (ctx, s, [index]) => codePointAt(s as string, position(ctx, index, 0)) },
  indexOf: { call: (ctx, s, [search, from]) => {
    scan(ctx, s as string);
    return indexOf(s as string, toStr(ctx, search), position(ctx, from, 0));
  } },
  lastIndexOf: { call: (ctx, s, [search, from]) => {
    scan(ctx, s as string);
    return lastIndexOf(s as string, toStr(ctx, search), from === undefined ? Infinity : position(ctx, from, Infinity));
  } },
  includes: { call: (ctx, s, [search, from]) => {
    scan(ctx, s as string);
    return includes(s as string, toStr(ctx, search), position(ctx, from, 0));
  } },
  startsWith: { call: (ctx, s, [search, from]) => startsWith(s as string, toStr(ctx, search), position(ctx, from, 0)) },
  endsWith: { call: (ctx, s, [search, end]) => endsWith(s as string, toStr(ctx, search), position(ctx, end, (s as string).length)) },
  slice: { call: (ctx, s, [from, to]) => {
    const text = s as string;
    return slice(text, relative(position(ctx, from, 0), text.length), relative(position(ctx, to, text.length), text.length));
  } },
  substring: { call: (ctx, s, [from, to]) => substring(s as string, position(ctx, from, 0), position(ctx, to, (s as string).length)) },
  substr: { call: (ctx, s, [from, length]) => {
    const text = s as string;
    const start = relative(position(ctx, from, 0), text.length);
    const count = length === undefined ? text.length - start : Math.max(0, position(ctx, length, 0));
    return slice(text, start, Math.min(start + count, text.length));
  } },
  toUpperCase: { call: (ctx, s) => sized(ctx, toUpperCase(s as string)) },
  toLowerCase: { call: (ctx, s) => sized(ctx, toLowerCase(s as string)) },
  trim: { call: (_ctx, s) => trim(s as string) },
  trimStart: { call: (_ctx, s) => trimStart(s as string) },
  trimEnd: { call: (_ctx, s) => trimEnd(s as string) },
  padStart: { call: (ctx, s, args) => pad(ctx, s as string, args, true) },
  padEnd: { call: (ctx, s, args) => pad(ctx, s as string, args, false) },
  repeat: { call: (ctx, s, [count]) => {
    const text = s as string;
    const n = toInteger(ctx, count);
    if (n < 0 || n === Infinity) throw rangeError(`invalid count value: ${n}`);
    ctx.checkStringLength(text.length * n);
    ctx.alloc(2 * text.length * n);
    return repeat(text, n);
  } },
  concat: { call: (ctx, s, args) => {
    let text = s as string;
    for (const arg of args) {
      const part = toStr(ctx, arg);
      ctx.checkStringLength(text.length + part.length);
      text += part;
    }
    ctx.alloc(2 * text.length);
    return text;
  } },
  split: { call: (ctx, s, args) => splitString(ctx, s as string, args) },
  replace: { callbacks: [1], call: (ctx, s, args) => replace(ctx, s as string, args, false) },
  replaceAll: { callbacks: [1], call: (ctx, s, args) => replace(ctx, s as string, args, true) },
  localeCompare: { call: (ctx, s, [that]) => {
    scan(ctx, s as string);
    return localeCompare(s as string, toStr(ctx, that));
  } },
  normalize: { call: (ctx, s, [form]) => {
    const name = form === undefined ? "NFC" : toStr(ctx, form);
    if (name !== "NFC" && name !== "NFD" && name !== "NFKC" && name !== "NFKD") {
      throw rangeError("the normalization form must be one of NFC, NFD, NFKC, NFKD");
    }
    scan(ctx, s as string);
    return sized(ctx, normalize(s as string, name));
  } },
  toString: { call: (_ctx: Context, s: Value) => s },
  valueOf: { call: (_ctx, s) => s },
  match: noRegExp("match"),
  matchAll: noRegExp("matchAll"),
  search: noRegExp("search"),
});
