/**
 * About how many bytes a memory takes in the heap, to bound what a cache of memories keeps by size
 * (a count alone let 22 threads of 28 MB each fill a 640 MiB heap). Strings count two bytes a
 * unit (V8 may store them in one), every value and key a few bytes more. Memory is frozen and a
 * turn's memory shares most of its objects with the last turn's, so the size of each frozen
 * object is remembered: measuring a turn's memory walks only what the turn made.
 */
const sizes = new WeakMap<object, number>();

const VALUE = 8;
const OBJECT = 24;

export function memoryBytes(value: unknown): number {
  if (typeof value === "string") return VALUE + 2 * value.length;
  if (value === null || typeof value !== "object") return VALUE;
  const known = sizes.get(value);
  if (known !== undefined) return known;
  let bytes = OBJECT;
  if (Array.isArray(value)) for (const item of value) bytes += memoryBytes(item);
  else for (const key in value) bytes += VALUE + 2 * key.length + memoryBytes((value as Record<string, unknown>)[key]);
  // Only what cannot change may be remembered.
  if (Object.isFrozen(value)) sizes.set(value, bytes);
  return bytes;
}
