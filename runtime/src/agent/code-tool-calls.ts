/**
 * The tools as a traced run's code gets them: each call is written down with what it gave back,
 * so that the trace holds it (a `tool_call` event of round 0) and a replay can give the result
 * back instead of calling the tool again. `tryTool`'s calls are among them: it calls these.
 */
import type { JsonValue } from "@autograms/graph";
import type { CodeToolCall } from "../engine/code-tool-call.js";
import type { HostFunction } from "@autograms/sandbox";
import { isThenable, toolErrorText } from "./builtin-tools.js";

export interface RecordedToolCalls {
  tools: Record<string, HostFunction>;
  /** The calls since the last `take`, in the order they were made. */
  take(): CodeToolCall[] | undefined;
}

export function recordingToolCalls(tools: Readonly<Record<string, HostFunction>>): RecordedToolCalls {
  let calls: CodeToolCall[] = [];
  const recording: Record<string, HostFunction> = {};
  for (const [name, fn] of Object.entries(tools)) {
    recording[name] = (...args) => {
      const call: CodeToolCall = { tool: name, args: plain(args) as JsonValue[] };
      calls.push(call);
      const failed = (error: unknown) => {
        call.error = toolErrorText(error);
        throw error;
      };
      let out: unknown;
      try {
        out = fn(...args);
      } catch (error) {
        failed(error);
      }
      if (!isThenable(out)) {
        call.result = plain(out);
        return out;
      }
      return Promise.resolve(out).then((value) => {
        call.result = plain(value);
        return value;
      }, failed);
    };
  }
  return {
    tools: recording,
    take() {
      if (calls.length === 0) return undefined;
      const taken = calls;
      calls = [];
      return taken;
    },
  };
}

/** A value as JSON keeps it; what JSON cannot hold (the sandbox refuses it as a result anyway) is null. */
function plain(value: unknown): JsonValue {
  try {
    return value === undefined ? null : (JSON.parse(JSON.stringify(value)) ?? null);
  } catch {
    return null;
  }
}
