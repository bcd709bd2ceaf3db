import { SandboxError, limitError, typeError } from "../errors.js";
import type { Context } from "../values/context.js";
import { toInteger, toStr } from "../values/convert.js";
import { fromHost } from "../values/copy.js";
import { Closure, isArray, type GuestObject, type Value } from "../values/types.js";
import { table } from "./registry.js";

/**
 * JSON.stringify written over sandbox data: the output is measured as it grows (shared
 * sub-arrays would otherwise multiply it), `toJSON` is never called (data has no functions),
 * cycles and BigInts fail as in JavaScript. JSON.parse uses the native parser on a string no
 * longer than maxStringLength, then copies the result into sandbox data under the limits.
 */

const nativeStringify = JSON.stringify;
const nativeParse = JSON.parse;
const keys = Object.keys;

function stringify(ctx: Context, value: Value, replacer: Value, space: Value): string | undefined {
  let allowed: Set<string> | null = null;
  if (isArray(replacer)) {
    allowed = new Set();
    ctx.charge(replacer.length);
    for (const item of replacer) {
      if (typeof item === "string") ctx.key(item);
      if (typeof item === "string" || typeof item === "number") allowed.add(String(item));
    }
  }
  let indent = "";
  if (typeof space === "number") indent = " ".repeat(Math.max(0, Math.min(10, toInteger(ctx, space))));
  else if (typeof space === "string") indent = space.slice(0, 10);

  const parts: string[] = [];
  let total = 0;
  const max = ctx.limits.maxStringLength;
  const emit = (text: string) => {
    total += text.length;
    if (total > max) ctx.checkStringLength(total);
    parts.push(text);
  };
  /** A string's JSON: at least its length and quotes, checked before the native escapes it (a copy). */
  const quote = (text: string) => {
    if (total + text.length + 2 > max) ctx.checkStringLength(total + text.length + 2);
    ctx.scan(text, text.length, 3);
    emit(nativeStringify(text));
  };
  const ancestors = new Set<object>();

  const write = (v: Value, depth: number): boolean => {
    switch (typeof v) {
      case "string":
        quote(v);
        return true;
      case "number":
        emit(Number.isFinite(v) ? String(v) : "null");
        return true;
      case "boolean":
        emit(v ? "true" : "false");
        return true;
      case "bigint":
        throw typeError("JSON.stringify cannot serialize a BigInt");
      case "undefined":
        return false;
    }
    if (v === null) {
      emit("null");
      return true;
    }
    if (v instanceof Closure) return false;
    if (depth >= ctx.limits.maxDepth)
      throw limitError("maxDepth", `JSON.stringify: data nested deeper than ${ctx.limits.maxDepth} levels (maxDepth)`);
    if (ancestors.has(v)) throw typeError("JSON.stringify: converting a circular structure");
    ancestors.add(v);
    ctx.charge(1);
    const inner = indent === "" ? "" : `\n${indent.repeat(depth + 1)}`;
    const outer = indent === "" ? "" : `\n${indent.repeat(depth)}`;
    if (isArray(v)) {
      if (v.length === 0) emit("[]");
      else {
        emit("[");
        for (let i = 0; i < v.length; i++) {
          if (i > 0) emit(",");
          emit(inner);
          if (!write(v[i], depth + 1)) emit("null");
        }
        emit(`${outer}]`);
      }
    } else {
      let names = keys(v);
      if (allowed !== null) names = names.filter((name) => allowed.has(name));
      emit("{");
      let first = true;
      for (const name of names) {
        const property = (v as GuestObject)[name];
        if (property === undefined || property instanceof Closure) continue;
        emit(first ? inner : `,${inner}`);
        first = false;
        quote(name);
        emit(indent === "" ? ":" : ": ");
        write(property, depth + 1);
      }
      emit(first ? "}" : `${outer}}`);
    }
    ancestors.delete(v);
    return true;
  };

  if (!write(value, 0)) return undefined;
  ctx.alloc(2 * total);
  return parts.join("");
}

function parse(ctx: Context, text: Value): Value {
  const source = toStr(ctx, text);
  ctx.scan(source, source.length, 2);
  let parsed: unknown;
  try {
    parsed = nativeParse(source);
  } catch (error) {
    throw new SandboxError("thrown", `JSON.parse: ${error instanceof Error ? error.message : "invalid JSON"}`);
  }
  return fromHost(ctx, parsed, "the parsed JSON", "thrown", false);
}

export const JSON_FUNCTIONS = table("JSON.", {
  stringify: { call: (ctx, _r, [value, replacer, space]) => stringify(ctx, value, replacer, space) },
  parse: { call: (ctx, _r, [text]) => parse(ctx, text) },
});
