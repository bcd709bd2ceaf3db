/**
 * A refused value as an error message shows it, the same in every package that checks what it is
 * given (the runtime's options, the store's arguments, the server's options): a number or a
 * boolean as written, text quoted and cut at 40 characters, anything else by its kind (`null`,
 * `an array`, `object`, `function`, `undefined`). Never an object's contents: a message can reach
 * a log or a client, and a value can be large, cyclic or secret.
 */
export function shownValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `'${value.length > 40 ? `${value.slice(0, 39)}\u2026` : value}'`;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return typeof value;
}
