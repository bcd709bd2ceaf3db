/** Structural check of memory read back from outside: the first problem, with its path, or null. */
import { FUNCTION_KINDS } from "@autograms/graph";

const SCOPES = new Set<string>(["main", ...FUNCTION_KINDS]);

type Check = (v: unknown, path: string) => string | null;

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const str: Check = (v, p) => (typeof v === "string" ? null : `${p} should be a string`);
const optStr: Check = (v, p) => (v === undefined ? null : str(v, p));

function turn(v: unknown, p: string): string | null {
  if (!isObj(v)) return `${p} should be an object`;
  if (v.kind !== "chat" && v.kind !== "thought") return `${p}.kind should be "chat" or "thought"`;
  return (
    str(v.node, `${p}.node`) ??
    str(v.agent, `${p}.agent`) ??
    optStr(v.user, `${p}.user`) ??
    optStr(v.instruction, `${p}.instruction`) ??
    optStr(v.category, `${p}.category`)
  );
}

const optString = (v: unknown) => v === undefined || typeof v === "string";

function isTurn(v: unknown): boolean {
  return (
    isObj(v) &&
    (v.kind === "chat" || v.kind === "thought") &&
    typeof v.node === "string" &&
    typeof v.agent === "string" &&
    optString(v.user) &&
    optString(v.instruction) &&
    optString(v.category)
  );
}

function frame(v: unknown, p: string, bottom: boolean): string | null {
  if (!isObj(v)) return `${p} should be an object`;
  if (typeof v.scope !== "string" || !SCOPES.has(v.scope))
    return `${p}.scope should be one of ${[...SCOPES].join(", ")}`;
  if (bottom !== (v.scope === "main")) return `${p}.scope: only the bottom frame is main`;
  if (!bottom && typeof v.function !== "string") return `${p}.function should be a string`;
  if (!isObj(v.vars)) return `${p}.vars should be an object`;
  if (!Array.isArray(v.turns)) return `${p}.turns should be an array`;
  // The cheap test first: a path is spelled out only for the turn that fails it.
  for (let i = 0; i < v.turns.length; i++) if (!isTurn(v.turns[i])) return turn(v.turns[i], `${p}.turns[${i}]`);
  return (
    str(v.node, `${p}.node`) ??
    str(v.id, `${p}.id`) ??
    str(v.prompt, `${p}.prompt`) ??
    str(v.userPrompt, `${p}.userPrompt`) ??
    optStr(v.carried, `${p}.carried`)
  );
}

export function memoryShapeError(m: Record<string, unknown>): string | null {
  if (!isObj(m.graph) || typeof m.graph.agent !== "string" || typeof m.graph.hash !== "string")
    return "graph should be { agent, hash }";
  if (typeof m.turn !== "number" || !Number.isInteger(m.turn) || m.turn < 0) return "turn should be a whole number";
  if (typeof m.done !== "boolean") return "done should be true or false";
  if (typeof m.checksum !== "string") return "checksum should be a string";
  if (!isObj(m.visits) || Object.values(m.visits).some((n) => typeof n !== "number"))
    return "visits should map node names to numbers";
  if (!Array.isArray(m.stack) || m.stack.length === 0) return "stack should be a non-empty array";
  for (let i = 0; i < m.stack.length; i++) {
    const e = frame(m.stack[i], `stack[${i}]`, i === 0);
    if (e) return e;
  }
  const topFrame = m.stack[m.stack.length - 1] as Record<string, unknown>;
  if (!m.done && !topFrame.node) return "the conversation is neither over nor waiting at a node";
  return null;
}
