/**
 * The implementations of the runtime's own tools (RUNTIME_TOOLS, in the graph's vocabulary) that
 * agent code may call.
 */
import type { JsonValue, RuntimeTool } from "@autograms/graph";
import { buildReactPrompt, parseLatestPluginCall, type ChatTurn, type PluginInfo } from "../tool-text/index.js";
import type { HostFunction } from "@autograms/sandbox";

/** The implementations; `tryTool` calls the agent's own tools by their names in the graph. */
export function runtimeTools(tools: Readonly<Record<string, HostFunction>>): Record<RuntimeTool, HostFunction> {
  return {
    // The compiler writes the tool's name where the agent wrote the function: tryTool("lookup", ...).
    tryTool: (name, ...args) => {
      if (typeof name !== "string" || !Object.hasOwn(tools, name)) {
        throw new Error(`tryTool: ${JSON.stringify(name)} is not one of the agent's tools`);
      }
      let result: unknown;
      try {
        result = tools[name]!(...args);
      } catch (error) {
        return failed(error);
      }
      if (isThenable(result)) return Promise.resolve(result).then(succeeded, failed);
      return succeeded(result);
    },
    buildReactPrompt: (history, plugins) =>
      buildReactPrompt(history as unknown as ChatTurn[], plugins as unknown as PluginInfo[]),
    parseLatestPluginCall: (text) => {
      if (typeof text !== "string")
        throw new TypeError(
          `parseLatestPluginCall takes the model's text, not ${text === null ? "null" : typeof text}`,
        );
      return { ...parseLatestPluginCall(text) };
    },
  };
}

function succeeded(value: unknown): { ok: true; value: unknown } {
  return { ok: true, value: value === undefined ? null : value };
}

function failed(error: unknown): { ok: false; error: JsonValue } {
  return { ok: false, error: toolErrorText(error) };
}

/** What a tool threw, as `tryTool` gives it back and a trace records it: the message, or the value's JSON. */
export function toolErrorText(error: unknown): string {
  try {
    return error instanceof Error
      ? String(error.message)
      : typeof error === "string"
        ? error
        : (JSON.stringify(error) ?? String(error));
  } catch {
    return "the tool failed";
  }
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
