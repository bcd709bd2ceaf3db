/**
 * The environment of a run, which every part of the step reads: the program, whether anyone
 * listens to the trace, the sandbox's options; and the two lookups made against it everywhere
 * (a node by name, an error located at a node).
 */
import type { GraphNode, JsonValue } from "@autograms/graph";
import { AgentError, type AgentErrorCode } from "../errors.js";
import type { CompiledNode, Program } from "./program.js";
import type { SandboxOptions } from "@autograms/sandbox";

export interface Env {
  program: Program;
  /** Build trace events (skipped entirely when nobody listens). */
  tracing: boolean;
  /**
   * The options of every evaluation in this run: the program's limits and the run's time, which
   * `Date.now()` returns (one value per run, so that a replay given the recorded time is exact).
   * Without them, the limits alone and the host's clock.
   */
  sandbox?: SandboxOptions;
  /**
   * Present when nobody is shown the run's frames while it goes on (no trace, no pause hook): the
   * top frame's variables this run copied last, which nothing else holds, so the next write to
   * the same frame changes them in place rather than copying them again. Absent, every write
   * copies and the step stays pure (`step` given the same state gives the same result).
   */
  fresh?: Fresh;
}

export interface Fresh {
  vars: Record<string, JsonValue> | null;
}

export function nodeOf(env: Env, name: string): CompiledNode {
  const cn = env.program.nodes.get(name);
  if (!cn) throw new AgentError("bad_transition", `no node named '${name}' in the graph`);
  return cn;
}

export function fail(env: Env, node: GraphNode, code: AgentErrorCode, detail: string, cause?: unknown): AgentError {
  return new AgentError(code, detail, { node: node.name, loc: node.loc, file: env.program.file, cause });
}
