/**
 * What the current scope sees of the stack. Reads walk from the top frame down and stop after
 * the first `local_function` frame (main counts as an ordinary frame), as in the original; unlike
 * the original, a frame higher up (the callee) wins over the frames below it (its callers).
 */
import type { JsonValue } from "../graph/types.js";
import type { Frame, MemoryBody, Turn } from "../memory/types.js";
import type { History } from "./history.js";
import { hasOwn, mergeVars } from "../memory/own.js";

/** Index of the lowest frame the top frame can see. */
export function visibleFrom(stack: readonly Frame[]): number {
  let i = stack.length - 1;
  while (i > 0 && stack[i]!.scope !== "local_function") i--;
  return i;
}

export function top(mem: MemoryBody): Frame {
  return mem.stack[mem.stack.length - 1]!;
}

/** The variables the top frame sees, callee over caller. Not a copy when only one frame is visible. */
export function visibleVars(stack: readonly Frame[]): Record<string, JsonValue> {
  const from = visibleFrom(stack);
  const last = stack.length - 1;
  if (from === last) return stack[last]!.vars;
  return mergeVars(stack.slice(from).map((f) => f.vars));
}

export function lookupVar(stack: readonly Frame[], name: string): JsonValue | undefined {
  const from = visibleFrom(stack);
  for (let i = stack.length - 1; i >= from; i--) {
    const vars = stack[i]!.vars;
    if (hasOwn(vars, name)) return vars[name];
  }
  return undefined;
}

/** The conversation the top frame sees: its visible frames' turn lists, oldest first. */
export function visibleTurns(stack: readonly Frame[]): History {
  const from = visibleFrom(stack);
  const lists: (readonly Turn[])[] = [];
  for (let i = from; i < stack.length; i++) if (stack[i]!.turns.length) lists.push(stack[i]!.turns);
  return lists;
}

// The step makes a new memory object on every node; these keep one shape per kind of object
// (cheaper than spreading, which the hot loop would otherwise do several times per node).

export function memoryWith(mem: MemoryBody, stack: Frame[], visits = mem.visits, done = mem.done): MemoryBody {
  return { format: mem.format, version: mem.version, graph: mem.graph, turn: mem.turn, done, stack, visits };
}

export function frameWith(frame: Frame, vars: Record<string, JsonValue>, turns = frame.turns, node = frame.node, id = frame.id): Frame {
  const f: Frame = { scope: frame.scope, node, id, vars, turns, prompt: frame.prompt, userPrompt: frame.userPrompt };
  if (frame.function !== undefined) f.function = frame.function;
  if (frame.carried !== undefined) f.carried = frame.carried;
  return f;
}

export function withTop(mem: MemoryBody, frame: Frame): MemoryBody {
  const stack = mem.stack.slice();
  stack[stack.length - 1] = frame;
  return memoryWith(mem, stack);
}

/** Writes go to the top frame only; what a caller holds is never changed by a callee's write. */
export function writeVars(mem: MemoryBody, values: Record<string, JsonValue>): MemoryBody {
  const frame = top(mem);
  return withTop(mem, frameWith(frame, { ...frame.vars, ...values }));
}
