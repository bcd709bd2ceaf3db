import type { JsonValue } from "@autograms/graph";
import type { SandboxErrorKind } from "../errors.js";
import type { SandboxLimits } from "../limits.js";
import type { SandboxLog } from "../log.js";

/** Messages between a sandbox pool and its child processes (structured clone over IPC). */

export interface EvaluateRequest {
  type: "evaluate";
  id: number;
  code: string;
  variables: Readonly<Record<string, JsonValue>>;
  /** The limits, and `now` when the caller gives the time. */
  limits: Partial<SandboxLimits> & { now?: number };
  /** Names of the tools the code may call; the tools themselves stay in the parent. */
  functions: string[];
}

/** The parent's answer to a tool call. */
export type CallResult =
  | { type: "result"; id: number; call: number; ok: true; value: unknown }
  | { type: "result"; id: number; call: number; ok: false; message: string };

export type ToChild = EvaluateRequest | CallResult;

export interface SerializedError {
  kind: SandboxErrorKind;
  message: string;
  limit?: keyof SandboxLimits;
  line?: number;
  column?: number;
  logs?: SandboxLog[];
}

export type FromChild =
  | { type: "ready"; id: -1 }
  | { type: "call"; id: number; call: number; name: string; args: JsonValue[] }
  | {
      type: "done";
      id: number;
      value: JsonValue | undefined;
      variables: Record<string, JsonValue>;
      logs?: SandboxLog[];
      time?: number;
    }
  | { type: "failed"; id: number; error: SerializedError };
