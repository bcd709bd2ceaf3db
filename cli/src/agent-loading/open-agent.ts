import { Agent, type AgentOptions, type ChatModel } from "@autograms/runtime";
import type { DiagnosticSink } from "./compile-agent.js";
import { loadAgentGraph, type LoadedAgent } from "./load-graph.js";
import { chooseModel } from "./model.js";
import type { ModelFlags } from "./model-options.js";
import { loadHostCode, type LoadedBundles } from "./tools.js";

export interface OpenedAgent {
  agent: Agent;
  loaded: LoadedAgent;
  /** The agent's tool and action modules (absolute paths), not those of installed packages. */
  moduleFiles: string[];
}

/**
 * Loads the agent (or graph), its tools and the model the flags choose, and makes the Agent.
 * `loaded` is handed to `onLoaded` as soon as it exists, so errors after that point can show source.
 */
export async function openAgent(file: string, flags: ModelFlags, options: {
  modelRequired: boolean;
  onLoaded?: (loaded: LoadedAgent) => void;
  /** Where the agent's code runs (AgentOptions.isolation); in this process unless given. */
  isolation?: AgentOptions["isolation"];
  /** The model as the agent gets it (a server times its calls). */
  wrapModel?: (model: ChatModel) => ChatModel;
  /** Tool and action bundles imported by earlier builds of this agent (--watch), reused when unchanged. */
  bundles?: LoadedBundles;
  /** Where the compiler's diagnostics go (default: stderr). */
  diagnostics?: DiagnosticSink;
}): Promise<OpenedAgent> {
  const loaded = await loadAgentGraph(file, options.diagnostics ? { diagnostics: options.diagnostics } : {});
  options.onLoaded?.(loaded);
  const chosen = await chooseModel(flags, options.modelRequired);
  const { none } = chosen;
  const model = options.wrapModel ? options.wrapModel(chosen.model) : chosen.model;
  const { tools, actions, files } = await loadHostCode(loaded.graph, loaded.baseDir, loaded.source?.display ?? loaded.file, options.bundles);
  // Retrying a model that is not there would only wait.
  const agent = new Agent(loaded.graph, {
    model, tools, actions, ...(none ? { config: { modelRetries: 0 } } : {}), ...(options.isolation ? { isolation: options.isolation } : {}),
  });
  return { agent, loaded, moduleFiles: files };
}
