import { isArray, type Value } from "../values/types.js";
import { ARRAY_METHODS } from "./arrays.js";
import { BIGINT_METHODS, BOOLEAN_METHODS, NUMBER_METHODS } from "./numbers.js";
import type { MethodTable } from "./registry.js";
import { STRING_METHODS } from "./strings.js";

/** The methods a receiver has, by its type: objects have none (their properties are data). */
export function methodsOf(value: Value): MethodTable | undefined {
  switch (typeof value) {
    case "string":
      return STRING_METHODS;
    case "number":
      return NUMBER_METHODS;
    case "boolean":
      return BOOLEAN_METHODS;
    case "bigint":
      return BIGINT_METHODS;
    case "object":
      return isArray(value) ? ARRAY_METHODS : undefined;
    default:
      return undefined;
  }
}

/** Names of methods that change their receiver: code calling one is compiled to copy what it reads. */
export const MUTATING_METHODS: ReadonlySet<string> = new Set(
  [ARRAY_METHODS, STRING_METHODS, NUMBER_METHODS].flatMap((methods) =>
    [...methods].filter(([, method]) => method.mutates).map(([name]) => name),
  ),
);
