/**
 * What one reply changed in memory, as a small JSON value, so a store can append it instead of
 * rewriting the whole memory: `applyDelta(before, delta)` gives the reply's memory again. A
 * delta names the checksum of the memory it applies to and the checksum of the memory it gives,
 * so a store that applies it to the wrong memory is told at once, and memory rebuilt from
 * tampered deltas is refused by the next reply like any tampered memory.
 */
import type { JsonValue } from "@autograms/graph";
import { AgentError } from "../errors.js";
import type { Frame, Memory, Turn } from "./types.js";
import { turnsAdded } from "./turns.js";
import { setOwn } from "./own.js";

export const DELTA_FORMAT = "autograms-memory-delta";
export const DELTA_VERSION = 1;

/** Frame fields other than `vars` and `turns`, which change by parts. */
type FrameField = "scope" | "function" | "node" | "id" | "prompt" | "userPrompt" | "carried";
const FRAME_FIELDS: readonly FrameField[] = ["scope", "function", "node", "id", "prompt", "userPrompt", "carried"];

/** A change of the frame at `at`: the whole frame when it is new, else the fields that changed. */
export type FrameChange =
  | { at: number; frame: Frame }
  | {
      at: number;
      /** Fields set to a new value. */
      set?: Partial<Pick<Frame, FrameField>>;
      /** Optional fields removed (`function`, `carried`). */
      unset?: FrameField[];
      vars?: { set?: Record<string, JsonValue>; unset?: string[] };
      /** The first `keep` turns stay, then `add` follows. */
      turns?: { keep: number; add: Turn[] };
    };

export interface MemoryDelta {
  format: typeof DELTA_FORMAT;
  version: typeof DELTA_VERSION;
  /** Checksum of the memory this delta applies to; null for the first reply of a conversation (no memory). */
  base: string | null;
  /** Checksum of the memory it gives (the reply's). */
  checksum: string;
  /** Top-level fields of memory that changed (`turn` always, as every reply counts one). */
  fields: Partial<Pick<Memory, "format" | "version" | "graph" | "turn" | "done">>;
  /** Visit counts that changed or were added. */
  visits?: Record<string, number>;
  /** Visit counts removed (the runtime never removes one; a delta between unrelated memories may). */
  unvisited?: string[];
  /** The stack's new height, and the frames that changed or are new. */
  stack: { length: number; frames: FrameChange[] };
}

const HEADER = ["format", "version", "graph", "turn", "done"] as const;

/** The delta from `before` (null: no memory) to `after`. Cheap: it follows what the runtime shares. */
export function memoryDelta(before: Memory | null, after: Memory): MemoryDelta {
  const fields: MemoryDelta["fields"] = {};
  for (const k of HEADER) {
    if (!before || !sameJson(before[k], after[k])) (fields as Record<string, unknown>)[k] = after[k];
  }
  const visits: Record<string, number> = {};
  for (const k of Object.keys(after.visits))
    if (!before || !Object.hasOwn(before.visits, k) || before.visits[k] !== after.visits[k])
      setOwn(visits, k, after.visits[k]!);
  const unvisited = before ? Object.keys(before.visits).filter((k) => !Object.hasOwn(after.visits, k)) : [];
  const frames: FrameChange[] = [];
  after.stack.forEach((frame, at) => {
    const old = before?.stack[at];
    if (old === frame) return;
    const change =
      old && old.scope === frame.scope && old.function === frame.function ? frameChange(old, frame, at) : { at, frame };
    if (change) frames.push(change);
  });
  const delta: MemoryDelta = {
    format: DELTA_FORMAT,
    version: DELTA_VERSION,
    base: before?.checksum ?? null,
    checksum: after.checksum,
    fields,
    stack: { length: after.stack.length, frames },
  };
  if (Object.keys(visits).length) delta.visits = visits;
  if (unvisited.length) delta.unvisited = unvisited;
  return delta;
}

function frameChange(old: Frame, frame: Frame, at: number): FrameChange | null {
  const change: Extract<FrameChange, { set?: unknown }> = { at };
  const set: Partial<Record<FrameField, string>> = {};
  const unset: FrameField[] = [];
  for (const k of FRAME_FIELDS) {
    if (old[k] === frame[k]) continue;
    if (frame[k] === undefined) unset.push(k);
    else set[k] = frame[k];
  }
  if (Object.keys(set).length) change.set = set as Partial<Pick<Frame, FrameField>>;
  if (unset.length) change.unset = unset;
  if (old.vars !== frame.vars) {
    const vset: Record<string, JsonValue> = {};
    const vunset: string[] = [];
    for (const k of Object.keys(frame.vars))
      if (!Object.hasOwn(old.vars, k) || old.vars[k] !== frame.vars[k]) setOwn(vset, k, frame.vars[k]!);
    for (const k of Object.keys(old.vars)) if (!Object.hasOwn(frame.vars, k)) vunset.push(k);
    if (Object.keys(vset).length || vunset.length)
      change.vars = { ...(Object.keys(vset).length && { set: vset }), ...(vunset.length && { unset: vunset }) };
  }
  if (old.turns !== frame.turns) change.turns = turnsAdded(old.turns, frame.turns);
  return Object.keys(change).length > 1 ? change : null;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return typeof a === "object" && typeof b === "object" && JSON.stringify(a) === JSON.stringify(b);
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The memory `delta` gives from `memory` (none for a delta that starts a conversation). Neither
 * input is changed; the result shares their unchanged parts. What it gives is checked like any
 * memory by the reply it is passed to.
 */
export function applyDelta(memory: Memory | unknown, delta: MemoryDelta | unknown): Memory {
  const d = checkedDelta(delta);
  if (d.base === null) {
    if (memory !== undefined && memory !== null)
      throw new AgentError("bad_delta", "this delta starts a new conversation: apply it to no memory (undefined)");
  } else {
    if (!isObj(memory) || !Array.isArray(memory.stack) || !isObj(memory.visits)) {
      throw new AgentError(
        "bad_delta",
        `this delta applies to the memory with checksum ${d.base}, and it was given ${memory === undefined || memory === null ? "none" : "something that is not memory"}`,
      );
    }
    if (memory.checksum !== d.base) {
      throw new AgentError(
        "bad_delta",
        `this delta applies to the memory with checksum ${d.base}, not to this one (checksum ${JSON.stringify(memory.checksum)})`,
      );
    }
  }
  const before = (d.base === null ? null : memory) as Memory | null;
  const stack: Frame[] = before ? before.stack.slice(0, d.stack.length) : [];
  for (const change of d.stack.frames) {
    if ("frame" in change) stack[change.at] = change.frame;
    else stack[change.at] = patchedFrame(stack[change.at], change);
  }
  if (stack.length !== d.stack.length || stack.some((f) => f === undefined)) {
    throw new AgentError("bad_delta", `the delta leaves frames of the stack undefined (height ${d.stack.length})`);
  }
  const out = { ...(before ?? {}), ...d.fields } as Memory;
  out.stack = stack;
  out.visits = d.visits || d.unvisited ? { ...before?.visits, ...d.visits } : before ? before.visits : {};
  for (const k of d.unvisited ?? []) delete out.visits[k];
  out.checksum = d.checksum;
  return out;
}

function patchedFrame(frame: Frame | undefined, change: Exclude<FrameChange, { frame: Frame }>): Frame {
  if (!frame) throw new AgentError("bad_delta", `the delta changes frame ${change.at}, which the memory does not have`);
  const out: Frame = { ...frame, ...change.set };
  for (const k of change.unset ?? []) if ((FRAME_FIELDS as readonly string[]).includes(k)) delete out[k];
  if (change.vars) {
    const vars = { ...frame.vars, ...change.vars.set };
    for (const k of change.vars.unset ?? []) delete vars[k];
    out.vars = vars;
  }
  if (change.turns) {
    const { keep, add } = change.turns;
    if (keep > frame.turns.length)
      throw new AgentError(
        "bad_delta",
        `the delta keeps ${keep} turns of frame ${change.at}, which has ${frame.turns.length}`,
      );
    out.turns = keep === frame.turns.length ? frame.turns.concat(add) : frame.turns.slice(0, keep).concat(add);
  }
  return out;
}

function checkedDelta(delta: unknown): MemoryDelta {
  const bad = (what: string) => new AgentError("bad_delta", `this is not a memory delta: ${what}`);
  if (!isObj(delta) || delta.format !== DELTA_FORMAT) throw bad(`expected an object with format "${DELTA_FORMAT}"`);
  if (delta.version !== DELTA_VERSION)
    throw bad(
      `delta version ${JSON.stringify(delta.version)} is not supported (this runtime reads version ${DELTA_VERSION})`,
    );
  if (delta.base !== null && typeof delta.base !== "string") throw bad("base should be a checksum or null");
  if (typeof delta.checksum !== "string") throw bad("checksum should be a string");
  if (!isObj(delta.fields)) throw bad("fields should be an object");
  if (delta.visits !== undefined && !isObj(delta.visits)) throw bad("visits should be an object");
  if (delta.unvisited !== undefined && !Array.isArray(delta.unvisited)) throw bad("unvisited should be an array");
  const stack = delta.stack;
  if (
    !isObj(stack) ||
    !Number.isInteger(stack.length) ||
    (stack.length as number) < 1 ||
    !Array.isArray(stack.frames)
  ) {
    throw bad("stack should be { length, frames }");
  }
  for (const [i, c] of (stack.frames as unknown[]).entries()) {
    if (!isObj(c) || !Number.isInteger(c.at) || (c.at as number) < 0 || (c.at as number) >= (stack.length as number))
      throw bad(`stack.frames[${i}].at should be a frame index below ${stack.length as number}`);
    if (
      "frame" in c
        ? !isObj(c.frame)
        : (c.set !== undefined && !isObj(c.set)) ||
          (c.unset !== undefined && !Array.isArray(c.unset)) ||
          (c.vars !== undefined && !isObj(c.vars)) ||
          (c.turns !== undefined && (!isObj(c.turns) || !Number.isInteger(c.turns.keep) || !Array.isArray(c.turns.add)))
    ) {
      throw bad(`stack.frames[${i}] is neither a frame nor a change of one`);
    }
  }
  return delta as unknown as MemoryDelta;
}
