/**
 * The cells whose text means more than its characters: the instruction with the original's
 * `x=` assignment prefix, comma-separated lists, and callable node names `f(a, b)`.
 */
import { instructionKind, VARIABLE_NAME, type Action } from "@autograms/graph";

/** Actions whose instruction is prose: there the original read any unescaped `=` as an assignment. */
function isProse(action: Action): boolean {
  return instructionKind(action) === "text";
}

const IDENTIFIER = new RegExp(VARIABLE_NAME);

function isIdentifier(text: string): boolean {
  return IDENTIFIER.test(text);
}

export interface ReadInstruction {
  instruction: string;
  assign?: string;
  /** Set when the original would have read a prefix as an assignment that this reader keeps as text. */
  keptPrefix?: string;
}

/**
 * The original split an instruction at its first `=` not preceded by `\` and took the text before
 * it as a variable name, whatever that text was. Here only a plain identifier counts, and in code
 * a comparison (`==`, `=>`, `<=`, ...) is never an assignment. `\=` in prose is a literal `=`.
 */
export function readInstruction(action: Action, cell: string): ReadInstruction {
  const prose = isProse(action);
  const match = prose ? /^(.*?)(?<!\\)=/s.exec(cell) : /^\s*([A-Za-z_$][A-Za-z0-9_$]*)\s*=(?![=>])/.exec(cell);
  let result: ReadInstruction = { instruction: cell };
  if (match) {
    const target = (match[1] as string).trim();
    if (isIdentifier(target)) result = { instruction: cell.slice(match[0].length).replace(/^\s+/, ""), assign: target };
    else if (prose) result = { instruction: cell, keptPrefix: target };
  }
  if (prose) result.instruction = result.instruction.replace(/\\=/g, "=");
  return result;
}

/**
 * The inverse of readInstruction: the assignment as the original's prefix, and in prose every `=`
 * escaped, so neither reader takes text for an assignment.
 */
export function writeInstruction(action: Action, instruction: string, assign: string | undefined): string {
  const body = isProse(action) ? instruction.replace(/=/g, "\\=") : instruction;
  if (assign === undefined) return body;
  // Spaced in code, as the original's compiler wrote it, so `x = =...` never reads as `x ==`.
  return action === "code" ? `${assign} = ${body}` : `${assign}=${body}`;
}

/** Splits at commas that are not inside parentheses, brackets, braces or quotes; trims; drops empties. */
export function splitList(cell: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let current = "";
  for (const ch of cell) {
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) depth = Math.max(0, depth - 1);
    else if (ch === "," && depth === 0) {
      items.push(current);
      current = "";
      continue;
    }
    current += ch;
  }
  items.push(current);
  return items.map((s) => s.trim()).filter((s) => s !== "");
}

export interface Callable {
  name: string;
  params: string[];
}

/** `f(a, b)` as a node name: the original's callable node (the entry of function `f`). */
export function readCallable(name: string): Callable | undefined | "invalid" {
  const match = /^([^()]*)\((.*)\)$/s.exec(name.trim());
  if (!match) return undefined;
  const fname = (match[1] as string).trim();
  const params = splitList(match[2] as string);
  return isIdentifier(fname) && params.every(isIdentifier) ? { name: fname, params } : "invalid";
}
