/**
 * The transition-target syntax, with its one parser: every reader of `transitions` (validator,
 * engine, compiler checks, pictures, spreadsheet) asks `parseTarget` what a target means.
 */

export type TransitionTarget =
  /** The conversation (or `agent.call`) ends. */
  | { kind: "quit" }
  /** Return from the current function: with the node's output, or the value of `expr`. */
  | { kind: "return"; expr?: string }
  /** `$var`: the node named by the variable's value. */
  | { kind: "variable"; variable: string }
  /** `X.*`: the candidates X.a, X.b, ... (`base` is X). */
  | { kind: "lettered"; base: string }
  /** `X.n`: the candidates X.1, X.2, ... by visit (`base` is X). */
  | { kind: "numbered"; base: string }
  | { kind: "node"; name: string };

export type SeriesKind = "lettered" | "numbered";

const SERIES_SUFFIX: Record<SeriesKind, string> = { lettered: ".*", numbered: ".n" };

/**
 * What a target means. `return` and `quit` are exact words; `return <expr>` a return with a value;
 * then `$var`, `X.n`, `X.*`; anything else is a node name.
 */
export function parseTarget(target: string): TransitionTarget {
  if (target === "quit") return { kind: "quit" };
  if (target === "return" || target.startsWith("return ")) {
    const expr = target.slice("return".length).trim();
    return expr ? { kind: "return", expr } : { kind: "return" };
  }
  if (target.startsWith("$")) return { kind: "variable", variable: target.slice(1) };
  for (const kind of ["numbered", "lettered"] as const) {
    if (target.endsWith(SERIES_SUFFIX[kind])) return { kind, base: target.slice(0, -SERIES_SUFFIX[kind].length) };
  }
  return { kind: "node", name: target };
}

/** The agent language's target for the statement that follows; never in a compiled graph. */
export const NEXT = "next";

/** Whether a name reads as a target other than a node name (in an agent, `next` too): no node may be named so. */
export function isSpecialTarget(name: string): boolean {
  return name === NEXT || parseTarget(name).kind !== "node";
}

/** `a` ... `z`, then `aa`, `ab`, ...: the suffix of the `index`th (from 0) candidate of an `X.*`. */
export function candidateLetters(index: number): string {
  let s = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(97 + ((n - 1) % 26)) + s;
  return s;
}

/** The name of the `index`th (from 0) candidate of `X.*` or `X.n`. */
export function candidateName(kind: SeriesKind, base: string, index: number): string {
  return `${base}.${kind === "lettered" ? candidateLetters(index) : String(index + 1)}`;
}

/** The candidates of `X.*` or `X.n` that exist, in order: they stop at the first missing. */
export function candidates(kind: SeriesKind, base: string, exists: (name: string) => boolean): string[] {
  const list: string[] = [];
  for (let i = 0; exists(candidateName(kind, base, i)); i++) list.push(candidateName(kind, base, i));
  return list;
}

/** How `X.*` or `X.n` is written for the candidates named after `base`. */
export function seriesTarget(kind: SeriesKind, base: string): string {
  return base + SERIES_SUFFIX[kind];
}

/**
 * The base and index (from 0) of a name of the form of an `X.*` or `X.n` candidate (`X.b`: X
 * and 1), whether or not the candidates before it exist; the base is all before the last dot.
 */
export function candidateOf(kind: SeriesKind, name: string): { base: string; index: number } | undefined {
  const dot = name.lastIndexOf(".");
  const suffix = name.slice(dot + 1);
  if (dot < 0 || !(kind === "lettered" ? /^[a-z]+$/ : /^[1-9]\d*$/).test(suffix)) return undefined;
  const index =
    kind === "lettered" ? [...suffix].reduce((n, c) => n * 26 + c.charCodeAt(0) - 96, 0) - 1 : Number(suffix) - 1;
  return { base: name.slice(0, dot), index };
}

/**
 * Whether a target leads to a node that exists. `quit`, `return` and `$var` need none (what `$var`
 * names is known only at run time); `X.*` and `X.n` need their first candidate.
 */
export function targetExists(target: string, exists: (name: string) => boolean): boolean {
  const t = parseTarget(target);
  switch (t.kind) {
    case "quit":
    case "return":
    case "variable":
      return true;
    case "lettered":
    case "numbered":
      return exists(candidateName(t.kind, t.base, 0));
    case "node":
      return exists(t.name);
  }
}
