// Memory and globals come from JSON that anyone may have written: a variable or node may be named
// `valueOf`, `toString` or `__proto__`. Reads go through own properties only, and merges define
// properties rather than assign them (assigning `__proto__` would replace the prototype instead).
import type { JsonValue } from "@autograms/graph";

export const hasOwn = (obj: object, key: string): boolean => Object.prototype.hasOwnProperty.call(obj, key);

/** How often a node ran; 0 for a node never counted, whatever its name. */
export const visitsOf = (visits: Readonly<Record<string, number>>, node: string): number =>
  hasOwn(visits, node) ? visits[node]! : 0;

/** The variables of several scopes as one object, later scopes over earlier, every name its own property. */
export function mergeVars(scopes: readonly Readonly<Record<string, JsonValue>>[]): Record<string, JsonValue> {
  return Object.fromEntries(scopes.flatMap((vars) => Object.entries(vars)));
}

/** Sets `obj[key]` as an own data property, even for `__proto__`. */
export function setOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  // Only `__proto__` is an accessor on Object.prototype; any other name is made own by assignment, which is far cheaper.
  if (key === "__proto__")
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}
