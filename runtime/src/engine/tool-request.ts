import type { CompiledNode } from "./program.js";
import type { Env } from "./env.js";
import type { Effect, ToolRun } from "./state.js";

/** The model's next generation with the node's tools; after the last allowed round, tools are refused. */
export function toolRequest(env: Env, cn: CompiledNode, run: ToolRun): Effect {
  return {
    kind: "complete_tools",
    node: cn.node.name,
    purpose: cn.chat ? "chat" : "thought",
    messages: run.messages,
    tools: cn.tools!.definitions,
    toolChoice: run.rounds >= env.program.config.maxToolRounds ? "none" : "auto",
    ...(cn.node.schema !== undefined && { schema: cn.node.schema }),
  };
}
