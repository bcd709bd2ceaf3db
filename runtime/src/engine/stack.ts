/**
 * The call stack while a run is under way: a persistent list, top first. A call pushes one cell,
 * a return drops one, a write replaces the top cell; the frames below are shared, never copied,
 * so each costs the same at any depth. Between turns memory holds the stack as a plain array of
 * frames (`toFrames` / `fromFrames`, once per turn).
 */
import type { JsonValue } from "@autograms/graph";
import type { Frame, MemoryBody } from "../memory/types.js";
import { mergeVars } from "../memory/own.js";

export interface Stack {
  readonly frame: Frame;
  readonly below: Stack | null;
  /** Frames in the stack, this one included (main's alone is 1). */
  readonly height: number;
  /**
   * The lowest cell this frame sees below it: null for a `local_function` and for main, which see
   * only themselves; else the caller's base, or the caller (reads walk down to the first
   * `local_function`, see scope.ts). Never the cell itself, so a stack is a tree, not a cycle.
   */
  readonly base: Stack | null;
  /**
   * The callers' variables this frame sees (from `base` up to the frame below, merged), null when
   * it sees none. Made once per call, so a deep stack of `function` frames costs its variables,
   * not its depth, per step.
   */
  readonly seen: Readonly<Record<string, JsonValue>> | null;
}

/** Memory as the step works on it: the stack is persistent; everything else as saved. */
export type RunMemory = Omit<MemoryBody, "stack"> & { stack: Stack };

export function push(below: Stack | null, frame: Frame, seen?: Stack["seen"]): Stack {
  const cell = { frame, below, height: below === null ? 1 : below.height + 1 } as {
    -readonly [K in keyof Stack]: Stack[K];
  };
  const alone = below === null || frame.scope === "local_function";
  cell.base = alone ? null : (below.base ?? below);
  cell.seen = alone ? null : (seen ?? visibleVars(below));
  return cell;
}

/** The variables the top frame sees, callee over caller. Not a copy when only one frame is visible. */
export function visibleVars(stack: Stack): Record<string, JsonValue> {
  return stack.seen === null ? stack.frame.vars : mergeVars([stack.seen, stack.frame.vars]);
}

/** The same stack with another top frame (of the same function). */
export function withTopFrame(stack: Stack, frame: Frame): Stack {
  return push(stack.below, frame, stack.seen);
}

export function fromFrames(frames: readonly Frame[]): Stack {
  let stack: Stack | null = null;
  for (const frame of frames) stack = push(stack, frame);
  if (stack === null) throw new Error("a stack has at least main's frame");
  return stack;
}

/** The frames, main first. */
export function toFrames(stack: Stack): Frame[] {
  const frames = new Array<Frame>(stack.height);
  for (let s: Stack | null = stack; s !== null; s = s.below) frames[s.height - 1] = s.frame;
  return frames;
}

/** The cells the top frame sees, from its base up to itself. */
export function visibleCells(stack: Stack): Stack[] {
  const cells: Stack[] = [];
  for (let s: Stack | null = stack; s !== null; s = s.below) {
    cells.push(s);
    if (s === stack.base || stack.base === null) break;
  }
  return cells.reverse();
}

export function toRunMemory(mem: MemoryBody): RunMemory {
  return {
    format: mem.format,
    version: mem.version,
    graph: mem.graph,
    turn: mem.turn,
    done: mem.done,
    stack: fromFrames(mem.stack),
    visits: mem.visits,
  };
}

export function toMemoryBody(mem: RunMemory): MemoryBody {
  return {
    format: mem.format,
    version: mem.version,
    graph: mem.graph,
    turn: mem.turn,
    done: mem.done,
    stack: toFrames(mem.stack),
    visits: mem.visits,
  };
}
