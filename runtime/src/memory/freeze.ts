/**
 * Memory the runtime hands out is deeply frozen, and the runtime remembers which memory objects
 * it sealed: such memory, given back, cannot have changed, so it is taken without being checked
 * or hashed again. Freezing stops at what is frozen already (the parts shared with earlier
 * turns), and a turn list made by appending to a frozen list freezes only its new turns, so a
 * turn freezes what it made and no more.
 */
import { extendedBy } from "./turns.js";
import type { Memory, MemoryBody, Turn } from "./types.js";

const sealed = new WeakSet<object>();

export function isSealed(value: unknown): value is Memory {
  return typeof value === "object" && value !== null && sealed.has(value);
}

export function markSealed(memory: Memory): Memory {
  sealed.add(memory);
  return memory;
}

/**
 * Freezes `value` and everything in it. What the runtime froze itself is frozen all through, so
 * the walk stops there; memory from outside may hold objects frozen only on the surface, so
 * `throughout` walks into frozen objects too.
 */
export function deepFreeze(value: unknown, throughout = false): void {
  if (value === null || typeof value !== "object" || (!throughout && Object.isFrozen(value))) return;
  Object.freeze(value);
  if (Array.isArray(value)) for (const v of value) deepFreeze(v, throughout);
  else for (const k of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[k], throughout);
}

function freezeTurns(list: readonly Turn[]): void {
  if (Object.isFrozen(list)) return;
  const base = extendedBy(list);
  const from = base && Object.isFrozen(base) ? base.length : 0;
  for (let i = from; i < list.length; i++) deepFreeze(list[i]);
  Object.freeze(list);
}

export function freezeMemory(mem: MemoryBody): void {
  if (Object.isFrozen(mem)) return;
  deepFreeze(mem.graph);
  deepFreeze(mem.visits);
  if (!Object.isFrozen(mem.stack)) {
    for (const frame of mem.stack) {
      if (Object.isFrozen(frame)) continue;
      freezeTurns(frame.turns);
      deepFreeze(frame.vars);
      Object.freeze(frame);
    }
    Object.freeze(mem.stack);
  }
  Object.freeze(mem);
}

/**
 * Freezes memory from outside once it passed its checks: all of it that is hashed (turn objects
 * hold only strings, as the structural check made sure), walking into objects frozen only on
 * the surface.
 */
export function freezeChecked(memory: Memory): void {
  Object.freeze(memory);
  Object.freeze(memory.graph);
  Object.freeze(memory.visits);
  for (const frame of memory.stack) {
    for (const turn of frame.turns) Object.freeze(turn);
    Object.freeze(frame.turns);
    deepFreeze(frame.vars, true);
    Object.freeze(frame);
  }
  Object.freeze(memory.stack);
}
