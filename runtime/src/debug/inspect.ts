/**
 * What a debugger shows of a paused run: its function stack as frames with source locations, the
 * scopes each frame sees, and expressions evaluated in a frame's scope (in the sandbox, on copies,
 * so looking never changes the run).
 */
import type { GraphNode, JsonValue, Loc } from "@autograms/graph";
import type { Frame, Scope } from "../memory/types.js";
import { visibleVars } from "../engine/scope.js";
import { fromFrames, visibleCells } from "../engine/stack.js";
import { evaluate } from "@autograms/sandbox";

export interface DebugFrame {
  /** 0 is the innermost frame, where the run stands. */
  index: number;
  /** `main`, or the function the frame runs. */
  function: string;
  scope: Scope;
  /** Where the frame stands: the node about to run (innermost), else the call it will return to. */
  node: string;
  loc: Loc | null;
}

export interface DebugScope {
  /** `main (globals)`, `doUnit (global_function)`, … */
  name: string;
  variables: Record<string, JsonValue>;
}

/** Frames innermost first; `current` is the node the innermost frame stands at. */
export function framesOf(
  stack: readonly Frame[],
  current: string,
  nodes: ReadonlyMap<string, GraphNode>,
): DebugFrame[] {
  const last = stack.length - 1;
  return stack
    .map((f, i) => {
      const node = i === last ? current : f.node;
      return {
        index: last - i,
        function: f.function ?? "main",
        scope: f.scope,
        node,
        loc: nodes.get(node)?.loc ?? null,
      };
    })
    .reverse();
}

/** The scopes frame `index` (0 innermost) sees, its own first, then its callers' while visible. */
export function scopesOf(stack: readonly Frame[], index: number): DebugScope[] {
  const upTo = fromFrames(stack.slice(0, stack.length - index));
  return visibleCells(upTo)
    .reverse()
    .map((cell) => scopeOf(cell.frame));
}

/** One memory frame as a scope: its name and its own variables. */
export function scopeOf(frame: Frame): DebugScope {
  return {
    name: frame.function === undefined ? "main (globals)" : `${frame.function} (${frame.scope})`,
    variables: ordered(frame.vars),
  };
}

/** The agent's variables first, then the automatic ones (`_last_user_reply`, …). */
function ordered(vars: Record<string, JsonValue>): Record<string, JsonValue> {
  const names = Object.keys(vars);
  const automatic = (n: string) => n.startsWith("_");
  return Object.fromEntries(
    [...names.filter((n) => !automatic(n)), ...names.filter(automatic)].map((n) => [n, vars[n]!]),
  );
}

/**
 * Evaluates an expression over what frame `index` sees. `this.x` reads the global `x`, as in the
 * agent source; `Date.now()` is `now` when given (the run's time). Throws the sandbox's error for
 * what it cannot evaluate.
 */
export function evaluateIn(stack: readonly Frame[], index: number, expression: string, now?: number): JsonValue {
  const { code, variables } = evaluationIn(stack, index, expression);
  return (evaluate(code, variables, now === undefined ? undefined : { now }).value ?? null) as JsonValue;
}

/**
 * What evaluating an expression in frame `index` runs: the sandbox code and (a copy of) the
 * variables it sees, for a caller that evaluates elsewhere (a sandbox pool's child process).
 */
export function evaluationIn(
  stack: readonly Frame[],
  index: number,
  expression: string,
): { code: string; variables: Record<string, JsonValue> } {
  const upTo = fromFrames(stack.slice(0, stack.length - index));
  return { code: expression.replace(/\bthis\s*\.\s*/g, ""), variables: structuredClone(visibleVars(upTo)) };
}
