import type { Context } from "../values/context.js";
import type { Value } from "../values/types.js";

/**
 * A built-in the sandbox offers. Built-ins are implemented on intrinsics captured when the
 * module loads, take sandbox values, and return sandbox values; what they dispatch on is these
 * tables (by receiver type and name), never a prototype.
 */
export interface Builtin {
  /** As the author writes it, for messages: `xs.map`, `Math.max`. */
  readonly name: string;
  readonly call: (ctx: Context, receiver: Value, args: Value[]) => Value;
  /** Argument positions that take a function (an arrow written in the call). */
  readonly callbacks?: readonly number[];
  /** Changes its receiver. */
  readonly mutates?: boolean;
  /** Only there to refuse with a better message than "not a function" (`s.match`): not offered. */
  readonly unavailable?: true;
}

export type MethodTable = ReadonlyMap<string, Builtin>;

export interface Namespace {
  readonly functions: MethodTable;
  readonly constants: ReadonlyMap<string, Value>;
}

export interface BuiltinEntry {
  call: Builtin["call"];
  unavailable?: true;
  callbacks?: readonly number[];
  mutates?: boolean;
}

export function table(prefix: string, entries: { [name: string]: BuiltinEntry }): Map<string, Builtin> {
  const map = new Map<string, Builtin>();
  for (const [name, entry] of Object.entries(entries)) map.set(name, { ...entry, name: `${prefix}${name}` });
  return map;
}
