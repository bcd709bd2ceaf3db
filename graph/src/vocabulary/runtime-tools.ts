/**
 * Functions of the runtime itself that agent code may call. The compiler records them in the
 * graph's `tools` like any imported function, under the runtime's module name, and the Agent
 * supplies their implementations, so no tool loader has to: a graph names them, so they are words
 * of the format.
 */
export const RUNTIME_MODULE = "@autograms/runtime";

/** Exports of the runtime that are tools when an agent imports them. */
export const RUNTIME_TOOLS = ["tryTool", "buildReactPrompt", "parseLatestPluginCall"] as const;

export type RuntimeTool = (typeof RUNTIME_TOOLS)[number];
