/**
 * A saved conversation with some variables of one of its frames set to new values: how a
 * developer asks "what if" from a turn (the playground's edit and rerun). Only variables the
 * frame already has may change, each to plain JSON; the rest of the memory stays as it was.
 */
import type { JsonValue } from "@autograms/graph";
import { AgentError } from "../errors.js";
import { hasOwn } from "../memory/own.js";
import type { Memory, MemoryBody } from "../memory/types.js";

export function editedMemory(before: Memory, frame: number, set: Record<string, unknown>): MemoryBody {
  const { checksum: _, ...body } = before;
  const refuse = (detail: string) => new AgentError("bad_input", `cannot set the variables: ${detail}`);
  if (body.done) throw refuse("the conversation has ended (it reached 'quit')");
  const target = Number.isInteger(frame) ? body.stack[frame] : undefined;
  if (!target)
    throw refuse(`the conversation's frames are 0 to ${body.stack.length - 1}, not ${JSON.stringify(frame)}`);
  const names = set !== null && typeof set === "object" && !Array.isArray(set) ? Object.keys(set) : [];
  if (!names.length) throw refuse("give at least one variable and its value");
  const where = frame === 0 ? "main" : `${target.scope} ${target.function}`;
  for (const name of names) {
    if (!hasOwn(target.vars, name)) {
      const has = Object.keys(target.vars).filter((n) => !n.startsWith("_"));
      throw refuse(
        `frame ${frame} (${where}) has no variable '${name}'${has.length ? ` (it has ${has.join(", ")})` : ""}`,
      );
    }
    const why = jsonProblem(set[name], name);
    if (why) throw refuse(why);
  }
  const vars = { ...target.vars, ...(set as Record<string, JsonValue>) };
  return { ...body, stack: body.stack.map((f, i) => (i === frame ? { ...f, vars } : f)) };
}

/** Why `value` is not plain JSON (what memory holds), with the path to the part that is not, or null. */
function jsonProblem(value: unknown, path: string, depth = 0): string | null {
  if (depth > 64) return `${path} is nested too deeply`;
  if (value === null || typeof value === "string" || typeof value === "boolean") return null;
  if (typeof value === "number") return Number.isFinite(value) ? null : `${path} is ${value}, not a JSON number`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const why = jsonProblem(value[i], `${path}[${i}]`, depth + 1);
      if (why) return why;
    }
    return null;
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [k, v] of Object.entries(value)) {
      const why = jsonProblem(v, `${path}.${k}`, depth + 1);
      if (why) return why;
    }
    return null;
  }
  return `${path} is ${value === undefined ? "undefined" : `a ${typeof value === "object" ? (value.constructor?.name ?? "object") : typeof value}`}, not JSON`;
}
