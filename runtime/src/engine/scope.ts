/**
 * What the current scope sees of the stack. Reads walk from the top frame down and stop after
 * the first `local_function` frame (main counts as an ordinary frame), as in the original; unlike
 * the original, a frame higher up (the callee) wins over the frames below it (its callers).
 */
import type { JsonValue } from "../graph/types.js";
import type { Frame, MemoryBody, Turn } from "../memory/types.js";

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
  const merged: Record<string, JsonValue> = {};
  for (let i = from; i <= last; i++) Object.assign(merged, stack[i]!.vars);
  return merged;
}

export function lookupVar(stack: readonly Frame[], name: string): JsonValue | undefined {
  const from = visibleFrom(stack);
  for (let i = stack.length - 1; i >= from; i--) {
    const vars = stack[i]!.vars;
    if (Object.prototype.hasOwnProperty.call(vars, name)) return vars[name];
  }
  return undefined;
}

/** The conversation the top frame sees, oldest first. */
export function visibleTurns(stack: readonly Frame[]): Turn[] {
  const from = visibleFrom(stack);
  const last = stack.length - 1;
  if (from === last) return stack[last]!.turns;
  const turns: Turn[] = [];
  for (let i = from; i <= last; i++) turns.push(...stack[i]!.turns);
  return turns;
}

export function withTop(mem: MemoryBody, frame: Frame): MemoryBody {
  const stack = mem.stack.slice();
  stack[stack.length - 1] = frame;
  return { ...mem, stack };
}

/** Writes go to the top frame only; what a caller holds is never changed by a callee's write. */
export function writeVars(mem: MemoryBody, values: Record<string, JsonValue>): MemoryBody {
  const frame = top(mem);
  return withTop(mem, { ...frame, vars: { ...frame.vars, ...values } });
}
