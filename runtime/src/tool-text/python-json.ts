// Python's json.dumps(value, ensure_ascii=False) with its default separators (", " and ": ").
// JavaScript has a single number type, so a whole number prints as a Python int would; wrap it in
// PyFloat to print it as the Python float it stands for (`1.0`, `1e+16`).

/** A number that Python holds as a float, for values JavaScript cannot tell apart from integers. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** Python's repr() of a float, as json.dumps writes it (NaN and infinities in JSON's extended spelling). */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  // toExponential() without an argument gives the shortest round-tripping digits, as Python's repr does.
  const [mantissa, exponent] = Math.abs(x).toExponential().split("e") as [string, string];
  const digits = mantissa.replace(".", "");
  const point = Number(exponent) + 1; // the value is 0.<digits> * 10**point
  // Python switches to exponent notation below 1e-4 and from 1e16 on.
  if (point <= -4 || point > 16) {
    const e = point - 1;
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}.0`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

function numberText(x: number): string {
  // A whole number is an int in Python: all its digits, never exponent notation.
  return Number.isInteger(x) ? BigInt(x).toString() : pythonFloatRepr(x);
}

const ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

/** A JSON string literal as Python writes it with ensure_ascii=False: only `"`, `\` and C0 controls escaped. */
export function pythonJsonString(s: string): string {
  return `"${s.replace(/[\x00-\x1f"\\]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}

function typeName(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "object") return (value as object).constructor?.name ?? "Object";
  return typeof value;
}

function keyText(key: unknown): string {
  if (typeof key === "string") return key;
  if (key instanceof PyFloat) return pythonFloatRepr(key.value);
  if (typeof key === "number") return numberText(key);
  if (typeof key === "bigint") return key.toString();
  if (typeof key === "boolean") return key ? "true" : "false";
  if (key === null) return "null";
  throw new TypeError(`keys must be str, int, float, bool or None, not ${typeName(key)}`);
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function objectEntries(v: object): [unknown, unknown][] {
  if (v instanceof Map) return [...v.entries()];
  if (isPlainObject(v)) return Object.entries(v).filter(([, item]) => item !== undefined);
  throw new TypeError(`Object of type ${typeName(v)} is not JSON serializable`);
}

/**
 * Python's `json.dumps(value, ensure_ascii=False)`. Accepts strings, numbers, bigints, booleans,
 * null, PyFloat, arrays, plain objects (properties whose value is undefined are left out, as
 * JSON.stringify does) and Maps (whose keys may be str, int, float, bool or None, as Python's dict
 * keys). Anything else is a TypeError, as in Python; a cycle is an error, as in Python.
 */
export function pythonJsonDumps(value: unknown): string {
  const open = new Set<object>();
  const visit = (v: unknown): string => {
    if (typeof v === "string") return pythonJsonString(v);
    if (typeof v === "number") return numberText(v);
    if (typeof v === "bigint") return v.toString();
    if (typeof v === "boolean") return v ? "true" : "false";
    if (v === null) return "null";
    if (v instanceof PyFloat) return pythonFloatRepr(v.value);
    if (typeof v !== "object") throw new TypeError(`Object of type ${typeName(v)} is not JSON serializable`);
    if (open.has(v)) throw new Error("Circular reference detected");
    open.add(v);
    const text = Array.isArray(v)
      ? `[${Array.from(v, (item) => visit(item)).join(", ")}]`
      : `{${objectEntries(v)
          .map(([k, item]) => `${pythonJsonString(keyText(k))}: ${visit(item)}`)
          .join(", ")}}`;
    open.delete(v);
    return text;
  };
  return visit(value);
}
