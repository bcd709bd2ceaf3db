/**
 * The sandbox is the only place code runs. Code that calls no tool is evaluated right inside the
 * step (it is pure computation); code that calls a tool is handed to the loop as an effect,
 * since a tool may do I/O and return a promise, and so is all code of an isolated program (it
 * runs in a child process).
 */
import type { GraphNode, JsonValue } from "../graph/types.js";
import { evaluate, SandboxError } from "../sandbox/index.js";
import { fail, type Env } from "./env.js";
import { clip } from "../text/cut.js";

export interface Evaluation {
  value: JsonValue;
  variables: Record<string, JsonValue>;
}

export function evaluateNow(env: Env, node: GraphNode, code: string, variables: Record<string, JsonValue>, what: string): Evaluation {
  try {
    const r = evaluate(code, variables, env.program.limits);
    return { value: (r.value ?? null) as JsonValue, variables: r.variables as Record<string, JsonValue> };
  } catch (e) {
    throw sandboxFailure(env, node, code, what, e);
  }
}

export function sandboxFailure(env: Env, node: GraphNode, code: string, what: string, e: unknown): Error {
  if (e instanceof SandboxError) {
    const at = e.line !== undefined ? ` (${what} line ${e.line}, column ${e.column})` : "";
    const limit = e.kind === "limit" ? ` [limit ${e.limit}]` : "";
    return fail(env, node, "sandbox", `${what} \`${short(code)}\` failed: ${e.message}${limit}${at}`, e);
  }
  return fail(env, node, "sandbox", `${what} \`${short(code)}\` failed: ${e instanceof Error ? e.message : String(e)}`, e);
}

function short(code: string): string {
  const one = code.replace(/\s+/g, " ").trim();
  return clip(one, 80);
}
