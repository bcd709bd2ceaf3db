import type { LogLevel } from "../log.js";
import type { Context } from "../values/context.js";
import { Closure, isArray, type Value } from "../values/types.js";
import { table, type BuiltinEntry } from "./registry.js";

/**
 * `console.log(...)` and its siblings: a debug print, not a way out of the sandbox. The
 * arguments become one line of text, as Node's console shows them (strings bare at the top and
 * quoted inside arrays and objects, `[ 1, 2 ]`, `{ a: 1 }`, `-0`, `10n`), which the evaluation
 * keeps in its `logs`; the host decides where it goes (the runtime makes it a trace event).
 * Formatting charges steps and allocation as it goes and stops at `maxLogLength` characters, so
 * a print of anything costs at most that much; it never fails and returns `undefined`.
 */

const keys = Object.keys;

/** Thrown inside the walk when the line is full: what was written so far is the print. */
const FULL = Symbol("full");

function format(ctx: Context, args: Value[]): string {
  const max = ctx.limits.maxLogLength;
  const parts: string[] = [];
  let total = 0;
  const emit = (text: string) => {
    const room = max - total;
    if (text.length > room) {
      // Never end on the first half of a surrogate pair.
      const end = room > 0 && isHighSurrogate(text.charCodeAt(room - 1)) ? room - 1 : room;
      take(text, end);
      throw FULL;
    }
    take(text, text.length);
  };
  const take = (text: string, length: number) => {
    if (length <= 0) return;
    ctx.scan(text, length, 4);
    parts.push(length === text.length ? text : text.slice(0, length));
    total += length;
  };
  /**
   * A string inside a value, quoted and escaped as Node's inspect does ('...' unless it holds a
   * quote). Only as much of it as the line can still take is read.
   */
  const quoted = (whole: string) => {
    const room = max - total;
    const text = whole.length > room ? whole.slice(0, room + 1) : whole;
    ctx.scan(whole, text.length, 2);
    const quote = !text.includes("'") ? "'" : !text.includes('"') ? '"' : !text.includes("`") ? "`" : "'";
    emit(quote);
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      const escape = escapeOf(text.charCodeAt(i), quote);
      if (escape === null) continue;
      if (i > from) emit(text.slice(from, i));
      emit(escape);
      from = i + 1;
    }
    if (from < text.length) emit(from === 0 ? text : text.slice(from));
    emit(quote);
  };
  const ancestors = new Set<object>();

  const write = (value: Value, depth: number): void => {
    switch (typeof value) {
      case "string":
        quoted(value);
        return;
      case "number":
        emit(Object.is(value, -0) ? "-0" : String(value));
        return;
      case "bigint":
        // Its digits cost in proportion to its size (at most maxBigIntBits).
        ctx.charge(1 + (value.toString(16).length >> 4));
        emit(`${value}n`);
        return;
      case "boolean":
        emit(value ? "true" : "false");
        return;
      case "undefined":
        emit("undefined");
        return;
    }
    if (value === null) {
      emit("null");
      return;
    }
    if (value instanceof Closure) {
      emit("[Function]");
      return;
    }
    const array = isArray(value);
    if (ancestors.has(value)) {
      emit("[Circular]");
      return;
    }
    if (depth >= ctx.limits.maxDepth) {
      emit(array ? "[Array]" : "[Object]");
      return;
    }
    ctx.charge(1);
    if (array) {
      if (value.length === 0) return emit("[]");
      ancestors.add(value);
      emit("[ ");
      for (let i = 0; i < value.length; i++) {
        if (i > 0) emit(", ");
        ctx.charge(1);
        write(value[i], depth + 1);
      }
      emit(" ]");
    } else {
      const names = keys(value);
      if (names.length === 0) return emit("{}");
      ctx.charge(names.length);
      ancestors.add(value);
      emit("{ ");
      names.forEach((name, i) => {
        if (i > 0) emit(", ");
        // Keys may be long data: only a short one is looked at for being an identifier.
        if (name.length <= 64 && isIdentifier(name)) emit(name);
        else quoted(name);
        emit(": ");
        write(value[name], depth + 1);
      });
      emit(" }");
    }
    ancestors.delete(value);
  };

  try {
    for (let i = 0; i < args.length; i++) {
      if (i > 0) emit(" ");
      const arg = args[i];
      // At the top, a string is printed as it is, as Node's console does.
      if (typeof arg === "string") emit(arg);
      else write(arg, 0);
    }
  } catch (error) {
    if (error !== FULL) throw error;
    parts.push(` … [cut at ${max} characters (maxLogLength)]`);
  }
  const text = parts.join("");
  ctx.alloc(2 * text.length);
  return text;
}

function escapeOf(c: number, quote: string): string | null {
  if (c === quote.charCodeAt(0)) return `\\${quote}`;
  if (c === 92) return "\\\\";
  if (c >= 32 && c < 127) return null;
  switch (c) {
    case 8:
      return "\\b";
    case 9:
      return "\\t";
    case 10:
      return "\\n";
    case 12:
      return "\\f";
    case 13:
      return "\\r";
  }
  if (c < 32 || (c >= 127 && c <= 159)) return `\\x${c.toString(16).toUpperCase().padStart(2, "0")}`;
  return null;
}

/** A key Node shows bare: ASCII letters, digits and `_`, not starting with a digit. */
function isIdentifier(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (!letter && !(i > 0 && c >= 48 && c <= 57)) return false;
  }
  return true;
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;

const print = (level: LogLevel): BuiltinEntry => ({
  call: (ctx, _r, args) => {
    ctx.charge(1);
    ctx.log(level, format(ctx, args));
    return undefined;
  },
});

export const CONSOLE_FUNCTIONS = table("console.", {
  log: print("log"),
  info: print("info"),
  debug: print("debug"),
  warn: print("warn"),
  error: print("error"),
});
