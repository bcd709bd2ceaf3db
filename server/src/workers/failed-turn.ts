/**
 * A turn's error as it crosses from a worker to the pool's thread: its code and message, and for
 * the runtime's AgentError where in the agent it failed, so the pool's thread gets an AgentError
 * again (a command shows it with its code frame, as it does for a turn played in its own thread).
 */
import { AgentError, type AgentErrorCode } from "@autograms/runtime";
import type { FailedTurn } from "./protocol.js";

export function failedTurn(err: unknown): FailedTurn {
  const code = (err as { code?: unknown }).code;
  const failed: FailedTurn = {
    code: typeof code === "string" ? code : "internal",
    message: err instanceof Error ? err.message : String(err),
    // Only a worker that may keep what the turn took is replaced. A turn over its time or memory
    // budget leaves the buffers its trace grew through (each doubling leaves the one before:
    // hundreds of MiB for a loop stopped by the default budgets) to the worker's collector, which
    // V8 runs soon, as it counts them as external memory; replacing the worker to free them at
    // once would also drop what it keeps for the other threads warm there, and let one thread
    // restart workers at will.
    ...((err as { retire?: unknown }).retire === true && { retire: true as const }),
  };
  if (!(err instanceof AgentError)) return failed;
  const { detail, node, file, line, column } = err;
  return {
    ...failed,
    at: {
      detail,
      ...(node !== undefined && { node }),
      ...(file !== undefined && { file }),
      ...(line !== undefined && { line }),
      ...(column !== undefined && { column }),
    },
  };
}

export function turnError({ code, message, at }: FailedTurn): Error {
  if (!at) return Object.assign(new Error(message), { code });
  const loc =
    at.line === undefined
      ? undefined
      : { line: at.line, column: at.column ?? 1, endLine: at.line, endColumn: at.column ?? 1 };
  return new AgentError(code as AgentErrorCode, at.detail, {
    ...(at.node !== undefined && { node: at.node }),
    ...(at.file !== undefined && { file: at.file }),
    ...(loc && { loc }),
  });
}
