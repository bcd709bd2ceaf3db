import { GLOBAL_FUNCTIONS, NAMESPACES } from "./builtins/globals.js";
import { ARRAY_METHODS } from "./builtins/arrays.js";
import { BIGINT_METHODS, BOOLEAN_METHODS, NUMBER_METHODS } from "./builtins/numbers.js";
import { STRING_METHODS } from "./builtins/strings.js";
import type { MethodTable } from "./builtins/registry.js";
import { UNAVAILABLE } from "./values/context.js";

/**
 * What the evaluator offers, read off the very tables its built-ins dispatch on (so it cannot
 * drift from them): the global functions, the namespaces with their functions and constants,
 * the methods of each kind of value, and the JavaScript globals it leaves out on purpose. The
 * compiler checks agent code against this before the code ever runs.
 */
export interface SandboxSurface {
  /** `String(x)`, `parseInt(s)`, ... */
  globals: ReadonlySet<string>;
  /** `Math`, `JSON`, `Object`, ...: their callable members and constants. */
  namespaces: ReadonlyMap<string, { functions: ReadonlySet<string>; constants: ReadonlySet<string> }>;
  /** Methods by the kind of value they are called on. */
  methods: Readonly<Record<"string" | "number" | "boolean" | "bigint" | "array", ReadonlySet<string>>>;
  /** JavaScript globals the evaluator does not have (`console`, `Date`, `process`, `RegExp`, ...). */
  unavailable: ReadonlySet<string>;
  /** Names the evaluator reads as built-in values: `undefined`, `NaN`, `Infinity`. */
  values: ReadonlySet<string>;
}

const names = (table: MethodTable) => new Set([...table].filter(([, b]) => !b.unavailable).map(([name]) => name));

export const SANDBOX_SURFACE: SandboxSurface = {
  globals: names(GLOBAL_FUNCTIONS),
  namespaces: new Map(
    [...NAMESPACES].map(([name, ns]) => [
      name,
      { functions: names(ns.functions), constants: new Set(ns.constants.keys()) },
    ]),
  ),
  methods: {
    string: names(STRING_METHODS),
    number: names(NUMBER_METHODS),
    boolean: names(BOOLEAN_METHODS),
    bigint: names(BIGINT_METHODS),
    array: names(ARRAY_METHODS),
  },
  unavailable: UNAVAILABLE,
  values: new Set(["undefined", "NaN", "Infinity"]),
};
