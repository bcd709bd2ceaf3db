/**
 * The sandbox is the only place code runs. Code that calls no tool is evaluated right inside the
 * step (it is pure computation); code that calls a tool is handed to the loop as an effect,
 * since a tool may do I/O and return a promise, and so is all code of an isolated program (it
 * runs in a child process).
 */
import type { GraphNode, JsonValue } from "@autograms/graph";
import { evaluateWrites, SandboxError, type SandboxLog, type Writes } from "@autograms/sandbox";
import { hasOwn } from "../memory/own.js";
import type { TraceEvent } from "../trace/events.js";
import { fail, type Env } from "./env.js";
import { event } from "./trace-event.js";
import type { RunMemory } from "./stack.js";
import type { CodeToolCall } from "./code-tool-call.js";
import { clip } from "../text/cut.js";

export interface Evaluation {
  value: JsonValue;
  /** What the code wrote (see `Writes`); null when it wrote nothing. */
  writes: Writes | null;
  /** What the code printed (`console.log`), in order. */
  logs?: SandboxLog[];
  /** The run's time, when the code read it (`Date.now()`). */
  time?: number;
  /** The tools the code called, in order, when the run is traced. */
  calls?: CodeToolCall[];
}

export function evaluateNow(
  env: Env,
  mem: RunMemory,
  node: GraphNode,
  code: string,
  variables: Record<string, JsonValue>,
  what: string,
): Evaluation {
  try {
    const r = evaluateWrites(code, variables, env.sandbox ?? env.program.limits);
    if (r.value === undefined) r.value = null;
    return r as Evaluation;
  } catch (e) {
    throw sandboxFailure(env, mem, node, code, what, e);
  }
}

/** What an evaluation that gives all the variables after it (in a child process, with tools) wrote. */
export function writesBetween(before: Record<string, JsonValue>, after: Record<string, JsonValue>): Writes | null {
  let writes: Writes | null = null;
  for (const name of Object.keys(after)) {
    const value = after[name];
    if (!hasOwn(before, name) || before[name] !== value) (writes ??= new Map()).set(name, value);
  }
  for (const name of Object.keys(before)) if (!hasOwn(after, name)) (writes ??= new Map()).set(name, undefined);
  return writes;
}

/** Trace events of what failed code printed before it stopped, kept with the error the run throws. */
const printedBefore = new WeakMap<object, TraceEvent[]>();

/** What the code of a failed run printed before it failed: the loop reports it before the error. */
export function printsBefore(error: unknown): TraceEvent[] | undefined {
  return typeof error === "object" && error !== null ? printedBefore.get(error) : undefined;
}

export function sandboxFailure(
  env: Env,
  mem: RunMemory,
  node: GraphNode,
  code: string,
  what: string,
  e: unknown,
): Error {
  if (e instanceof SandboxError) {
    const at = e.line !== undefined ? ` (${what} line ${e.line}, column ${e.column})` : "";
    const limit = e.kind === "limit" ? ` [limit ${e.limit}]` : "";
    const error = fail(env, node, "sandbox", `${what} \`${short(code)}\` failed: ${e.message}${limit}${at}`, e);
    if (e.logs !== undefined && env.tracing) printedBefore.set(error, logEvents(env, mem, node, e.logs));
    return error;
  }
  return fail(
    env,
    node,
    "sandbox",
    `${what} \`${short(code)}\` failed: ${e instanceof Error ? e.message : String(e)}`,
    e,
  );
}

/** One `log` event per line printed, at the node whose code printed it. */
export function logEvents(env: Env, mem: RunMemory, node: GraphNode, logs: readonly SandboxLog[]): TraceEvent[] {
  return logs.map((log) => event(env, mem, node, { kind: "log", level: log.level, text: log.text })!);
}

function short(code: string): string {
  const one = code.replace(/\s+/g, " ").trim();
  return clip(one, 80);
}
