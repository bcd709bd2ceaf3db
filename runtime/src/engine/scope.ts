/**
 * What the current scope sees of the stack. Reads walk from the top frame down and stop after
 * the first `local_function` frame (main counts as an ordinary frame), as in the original; unlike
 * the original, a frame higher up (the callee) wins over the frames below it (its callers).
 */
import type { JsonValue } from "@autograms/graph";
import type { Frame } from "../memory/types.js";
import type { History } from "./history.js";
import { hasOwn } from "../memory/own.js";
import { visibleCells, visibleVars, withTopFrame, type RunMemory, type Stack } from "./stack.js";

export function top(mem: RunMemory): Frame {
  return mem.stack.frame;
}

export { visibleVars };

export function lookupVar(stack: Stack, name: string): JsonValue | undefined {
  const vars = stack.frame.vars;
  if (hasOwn(vars, name)) return vars[name];
  const seen = stack.seen;
  return seen !== null && hasOwn(seen, name) ? seen[name] : undefined;
}

/** The conversation the top frame sees: its visible frames' turn lists, oldest first. */
export function visibleTurns(stack: Stack): History {
  const cells = stack.base === null ? [stack] : visibleCells(stack);
  return cells.flatMap((cell) => (cell.frame.turns.length ? [cell.frame.turns] : []));
}

// The step makes a new memory object on every node; these keep one shape per kind of object
// (cheaper than spreading, which the hot loop would otherwise do several times per node).

export function memoryWith(mem: RunMemory, stack: Stack, visits = mem.visits, done = mem.done): RunMemory {
  return { format: mem.format, version: mem.version, graph: mem.graph, turn: mem.turn, done, stack, visits };
}

export function frameWith(
  frame: Frame,
  vars: Record<string, JsonValue>,
  turns = frame.turns,
  node = frame.node,
  id = frame.id,
): Frame {
  const f: Frame = { scope: frame.scope, node, id, vars, turns, prompt: frame.prompt, userPrompt: frame.userPrompt };
  if (frame.function !== undefined) f.function = frame.function;
  if (frame.carried !== undefined) f.carried = frame.carried;
  return f;
}

export function withTop(mem: RunMemory, frame: Frame): RunMemory {
  return memoryWith(mem, withTopFrame(mem.stack, frame));
}

/** Writes go to the top frame only; what a caller holds is never changed by a callee's write. */
export function writeVars(mem: RunMemory, values: Record<string, JsonValue>): RunMemory {
  const frame = top(mem);
  return withTop(mem, frameWith(frame, { ...frame.vars, ...values }));
}
