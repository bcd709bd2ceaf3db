/** The end of a chat or thought node's turn, whichever action made its text. */
import { type JsonValue, LAST_USER_REPLY } from "@autograms/graph";
import type { Frame, Turn } from "../memory/types.js";
import { appendTurns } from "../memory/turns.js";
import { assignOutput } from "./output.js";
import type { CompiledNode } from "./program.js";
import { moved, result } from "./result.js";
import { frameWith, memoryWith, top, withTop } from "./scope.js";
import { fromFrames, toFrames, type RunMemory } from "./stack.js";
import type { Phase, RunState, StepResult } from "./state.js";
import { changesOf, type event } from "./trace-event.js";
import type { Env } from "./env.js";

/** Appends the node's turn, consumes the user's message, assigns the output; a chat ends the turn. */
export function finishTurn(
  env: Env,
  state: RunState,
  cn: CompiledNode,
  agent: string,
  output: JsonValue,
  instruction: string | undefined,
  ev: (mem: RunMemory, changes: ReturnType<typeof changesOf>) => ReturnType<typeof event>,
  chat = cn.chat,
): StepResult {
  const node = cn.node;
  const turn: Turn = { node: node.name, kind: chat ? "chat" : "thought", agent };
  if (state.pending) turn.user = state.pending;
  if (instruction !== undefined) turn.instruction = instruction;
  if (node.state_category) turn.category = node.state_category;
  let mem = state.mem;
  const frame = top(mem);
  const extra: Record<string, JsonValue> = state.pending !== null ? { [LAST_USER_REPLY]: state.pending } : {};
  const changes = changesOf(env, mem, node.assign ? { ...extra, [node.assign]: output } : extra);
  mem = withTop(mem, frameWith(frame, frame.vars, appendTurns(frame.turns, [turn])));
  mem = assignOutput(mem, node, output, extra);
  if (!chat) {
    const next = moved(state, mem, { kind: "route", node: node.name, output, interject: false }, null);
    return result(next, ev(mem, changes));
  }
  // The conversation moved on: no function may give an older message back to its caller now.
  // (A turn's end costs the stack's depth anyway: the memory is saved.)
  const frames = toFrames(mem.stack).map(frameWithoutCarried);
  const last = frames[frames.length - 1]!;
  frames[frames.length - 1] = frameWith(last, last.vars, last.turns, node.name, cn.id);
  mem = memoryWith(mem, fromFrames(frames));
  // A reply after which only `quit` can come: the loop takes that step at once (see `drive`).
  const phase: Phase =
    cn.endsConversation && state.mode === "reply"
      ? { kind: "route", node: node.name, output, interject: false }
      : { kind: "waiting", node: node.name };
  const next = moved(state, mem, phase, null);
  return result(next, ev(mem, changes), { kind: "reply", node: node.name, text: agent });
}

/** The user's message is taken as read: no function may give it back to its caller now. */
export function withoutCarried(mem: RunMemory): RunMemory {
  const frames = toFrames(mem.stack);
  if (frames.every((f) => f.carried === undefined)) return mem;
  return memoryWith(mem, fromFrames(frames.map(frameWithoutCarried)));
}

function frameWithoutCarried(frame: Frame): Frame {
  if (frame.carried === undefined) return frame;
  const f = frameWith(frame, frame.vars);
  delete f.carried;
  return f;
}
