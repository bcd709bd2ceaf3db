/**
 * The tools `autograms mcp` offers: `chat`, a turn of a thread of the store (as `chat --store` takes
 * one), and each function of the agent (as `run` calls it). Every call is bounded as a turn of
 * `serve` is: its turns played under the same budgets (the server's own thread, as `serve
 * --workers 0` plays them, a long one letting the others have the event loop), and the whole call
 * under a time limit, past which it is stopped and nothing of it is committed.
 */
import { randomUUID } from "node:crypto";
import type { Agent, JsonValue } from "@autograms/runtime";
import { InProcessPlayer, type TurnBudgets } from "@autograms/server";
import { runTurn, type Store } from "@autograms/store";
import { boundedCall } from "./bounded-call.js";

export interface ToolEntry {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, object>; required?: string[] };
}

export interface CallBounds {
  budgets: TurnBudgets;
  /** Milliseconds one call may take in all (its model's answers and tools included). */
  timeoutMs: number;
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

/** The tools: `chat`, then the agent's functions with their parameters (any JSON value each). */
export function toolsOf(agent: Agent): ToolEntry[] {
  const chat: ToolEntry = {
    name: "chat",
    description: `Send a message to the agent ${agent.graph.agent} and get its reply. Give the thread id it returned to go on with the same conversation; leave it out to start a new one.`,
    inputSchema: {
      type: "object",
      properties: { message: { type: "string" }, thread: { type: "string" } },
      required: ["message"],
    },
  };
  const functions = Object.entries(agent.graph.functions).map(([name, info]): ToolEntry => {
    const required = info.params.filter((p) => !Object.hasOwn(info.defaults ?? {}, p));
    return {
      name,
      description: `The agent's function ${name}(${info.params.join(", ")}).`,
      inputSchema: {
        type: "object",
        properties: Object.fromEntries(info.params.map((p) => [p, {}])),
        ...(required.length > 0 && { required }),
      },
    };
  });
  return [chat, ...functions];
}

const text = (value: unknown, isError = false): ToolResult => ({
  content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value) }],
  ...(isError && { isError }),
});

/** Calls a tool; `signal` stops it (the client cancelled, the server stops). A failure is the result's text, with `isError`. */
export function toolCaller(
  agent: Agent,
  store: Store,
  bounds: CallBounds,
): (name: string, args: Record<string, unknown>, signal: AbortSignal) => Promise<ToolResult> {
  const player = new InProcessPlayer(agent, bounds.budgets);
  const call = async (name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> => {
    if (name === "chat") {
      if (typeof args.message !== "string") return text("chat: `message` must be a string", true);
      const thread = typeof args.thread === "string" ? args.thread : randomUUID();
      const { reply } = await runTurn(store, agent, thread, args.message, {
        signal,
        // A new thread starts with the agent's opening turn, as `chat --store` starts one.
        openingFirst: true,
        play: (memory, stop, said) =>
          player.play({ threadId: thread, text: said, memory, signal: stop, onStep: () => {}, onText: () => {} }),
      });
      return { ...text(reply ?? "(the conversation has ended)"), structuredContent: { reply, thread } };
    }
    const info = Object.hasOwn(agent.graph.functions, name) ? agent.graph.functions[name] : undefined;
    if (!info) return text(`no tool '${name}'`, true);
    const values = info.params.filter((p) => p in args).map((p) => args[p] as JsonValue);
    const value = await boundedCall(agent, name, values, bounds.budgets, signal);
    return { ...text(value), structuredContent: { value } };
  };
  return async (name, args, signal) => {
    const limit = new AbortController();
    const timer = setTimeout(
      () =>
        limit.abort(
          new Error(
            `the call of '${name}' took longer than ${bounds.timeoutMs} ms (--call-timeout-ms) and was stopped; nothing of it was committed`,
          ),
        ),
      bounds.timeoutMs,
    );
    try {
      return await call(name, args, AbortSignal.any([signal, limit.signal]));
    } catch (err) {
      // The caller sees why the call failed; the server goes on.
      return text(err instanceof Error ? err.message : String(err), true);
    } finally {
      clearTimeout(timer);
    }
  };
}
