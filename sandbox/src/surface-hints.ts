/**
 * What to use instead of what the evaluator does not offer: one table for every place that
 * refuses agent code (the compiler reading TypeScript, the check of code text below, the
 * spreadsheet importer), so the advice is the same wherever the mistake is made.
 */

const REGEXP_HINT =
  "regular expressions are not available in agent code; use includes, startsWith, endsWith, indexOf, split or replaceAll, or a tool";

/** JavaScript globals the evaluator leaves out. */
export const GLOBAL_HINTS: Readonly<Record<string, string>> = {
  performance:
    "Date.now() gives the turn's time in milliseconds (one value for the whole turn, recorded with the run); time work inside a tool",
  process: "agent code cannot read the environment or the process: read it in a tool module",
  RegExp: REGEXP_HINT,
  Map: "use a plain object (keys are strings) or an array of pairs",
  Set: "use an array (includes, filter) or an object's keys",
  Promise: "agent code is synchronous: a tool may be async, and the runtime awaits it",
  fetch: "call a tool that fetches",
  require: "import functions from a tool module at the top of the file",
};

/** Methods no value has here. */
export const METHOD_HINTS: Readonly<Record<string, string>> = {
  match: REGEXP_HINT,
  matchAll: REGEXP_HINT,
  search: REGEXP_HINT,
  test: REGEXP_HINT,
  exec: REGEXP_HINT,
  entries: "arrays have no iterators here: use Object.entries(xs), or xs.map((x, i) => [i, x])",
  keys: "arrays have no iterators here: use Object.keys(xs), or xs.map((_, i) => i)",
  values: "arrays have no iterators here: use the array itself, or Object.values(o) for an object",
  hasOwnProperty: "use Object.hasOwn(o, key)",
};

export const UNKNOWN_METHOD_HINT =
  "no value has such a method here (strings, numbers and arrays have the usual ones; an object's properties are data, never functions)";

export const UNAVAILABLE_HINT = "agent code runs in a sandbox without it";

/** A call of a name that is neither one of the evaluator's functions nor a tool. */
export function unknownFunctionHint(globals: Iterable<string>): string {
  return `it is none of the evaluator's functions (${[...globals].join(", ")}) and no tool of the agent: import it from a tool module, or compute it with these`;
}

/** What to use instead of a global the evaluator leaves out (`fallback` when there is no advice of its own). */
export function globalHint(name: string, fallback = UNAVAILABLE_HINT): string {
  return GLOBAL_HINTS[name] ?? fallback;
}

export function methodHint(name: string): string {
  return METHOD_HINTS[name] ?? UNKNOWN_METHOD_HINT;
}
