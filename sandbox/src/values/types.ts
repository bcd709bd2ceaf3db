/**
 * Values inside the sandbox. Data is primitives, arrays and objects; objects the interpreter
 * creates have a null prototype, so no lookup can ever reach `Object.prototype`. The only
 * other value is a `Closure`, which exists only as an argument to a built-in that takes a callback.
 */
export type Value = undefined | null | boolean | number | string | bigint | Value[] | GuestObject | Closure;

export interface GuestObject {
  [key: string]: Value;
}

/** The activation record of one arrow-function call: parameters and block-scoped names, by slot. */
export class Frame {
  readonly slots: Value[];
  constructor(
    size: number,
    readonly parent: Frame | null,
  ) {
    this.slots = new Array<Value>(size);
  }
}

/**
 * What the compiler knows of an arrow function; shared by every closure made from it. `Ctx` is
 * the interpreter's `Context` (values/context.ts), which calls `bind` and `body`: a parameter
 * here, so that the values do not import the interpreter that imports them.
 */
export interface ArrowCode<Ctx = unknown> {
  readonly slots: number;
  /** Syntax nodes in the body, charged as steps on every call. */
  readonly cost: number;
  bind(ctx: Ctx, frame: Frame, args: Value[]): void;
  body(ctx: Ctx, frame: Frame): Value;
}

/** An arrow function passed to a built-in: only the interpreter calls it. */
export class Closure {
  constructor(
    readonly code: ArrowCode,
    readonly frame: Frame | null,
  ) {}
}

export const isArray: (value: unknown) => value is unknown[] = Array.isArray;

/** Arrays and objects (never closures). */
export const isContainer = (value: Value): value is Value[] | GuestObject =>
  typeof value === "object" && value !== null && !(value instanceof Closure);

export const isPlainObject = (value: Value): value is GuestObject =>
  typeof value === "object" && value !== null && !isArray(value) && !(value instanceof Closure);

/**
 * Copies elements by index. Native `slice` would consult the array's `constructor` (species);
 * an array from the host could carry its own, so arrays the sandbox did not build are copied so.
 */
export function copyValues(values: readonly Value[], from = 0, to = values.length): Value[] {
  const length = to > from ? to - from : 0;
  const out = new Array<Value>(length);
  for (let i = 0; i < length; i++) out[i] = values[from + i];
  return out;
}
