import {
  Agent,
  type ActionDefinition,
  type AgentOptions,
  type ChatModel,
  type Graph,
  type Tool,
} from "@autograms/runtime";
import type { DiagnosticSink } from "./compile-agent.js";
import { loadAgentGraph, type LoadedAgent } from "./load-graph.js";
import { chooseModel } from "./model.js";
import type { ModelFlags } from "./model-options.js";
import type { Project } from "./project-files.js";
import { bundleHostCode, importHostCode, type HostBundle, type LoadedBundles } from "./tools.js";
import { isMcpTool, loadMcpTools } from "./mcp-tools.js";

export interface OpenedAgent {
  agent: Agent;
  /** Its tools of MCP servers, by the graph's names (for `serve`'s workers to call through this thread). */
  mcpTools: Record<string, Tool>;
  loaded: LoadedAgent;
  /** The agent's tool and action modules (absolute paths), not those of installed packages. */
  moduleFiles: string[];
}

export interface AgentMaking {
  modelRequired: boolean;
  /** Where the agent's code runs (AgentOptions.isolation); in this process unless given. */
  isolation?: AgentOptions["isolation"];
  /** The model as the agent gets it (a server times its calls). */
  wrapModel?: (model: ChatModel) => ChatModel;
  /** Tool and action bundles this thread imported for earlier builds of this agent (--watch), reused when unchanged. */
  bundles?: LoadedBundles;
  /** The agent's MCP tools, held by another thread (a serve worker calls them through the server's); connected here when absent. */
  mcpTools?: Record<string, Tool>;
}

/**
 * Loads the agent (or graph), its tools and the model the flags choose, and makes the Agent.
 * `loaded` is handed to `onLoaded` as soon as it exists, so errors after that point can show source.
 */
export async function openAgent(
  file: string,
  flags: ModelFlags,
  options: AgentMaking & {
    onLoaded?: (loaded: LoadedAgent) => void;
    /** Where the compiler's diagnostics go (default: stderr). */
    diagnostics?: DiagnosticSink;
    /** Type-check an agent (.ts) with TypeScript's checker too. */
    typeCheck?: boolean;
  },
): Promise<OpenedAgent> {
  const loaded = await loadAgentGraph(file, {
    ...(options.diagnostics && { diagnostics: options.diagnostics }),
    ...(options.typeCheck && { typeCheck: true }),
  });
  options.onLoaded?.(loaded);
  const { agent, moduleFiles, mcpTools } = await agentOf(
    { graph: loaded.graph, baseDir: loaded.baseDir, importer: loaded.source?.display ?? loaded.file },
    flags,
    options,
  );
  return { agent, loaded, moduleFiles, mcpTools };
}

/** A loaded graph, as plain data (a worker thread makes its agent from it). */
export interface GraphAt {
  graph: Graph;
  /** The folder its tool and action modules are resolved from. */
  baseDir: string;
  /** How messages name the agent file. */
  importer: string;
  /** Its tool and action modules bundled already (`bundleOf`); made by `agentOf` when absent. */
  bundle?: HostBundle;
  /** When given, a module outside it is refused unread (what `serve` bundles, it may show its clients). */
  project?: Project;
}

/** The bundle of the graph's tool and action modules (those of MCP servers are not modules). */
export function bundleOf(at: GraphAt): Promise<HostBundle> {
  const { graph } = at;
  const local = {
    ...graph,
    tools: Object.fromEntries(Object.entries(graph.tools ?? {}).filter(([, t]) => !isMcpTool(t))),
  };
  return bundleHostCode(local, at.baseDir, at.importer, at.project);
}

/** The Agent of a loaded graph: its tools and actions loaded, its model chosen by the flags. */
export async function agentOf(
  at: GraphAt,
  flags: ModelFlags,
  options: AgentMaking,
): Promise<{
  agent: Agent;
  moduleFiles: string[];
  /** All its tools: those of its modules and of MCP servers. */
  tools: Record<string, Tool>;
  mcpTools: Record<string, Tool>;
  actions: ActionDefinition<any, any>[];
}> {
  const chosen = await chooseModel(flags, options.modelRequired);
  const { none } = chosen;
  const model = options.wrapModel ? options.wrapModel(chosen.model) : chosen.model;
  const bundle = at.bundle !== undefined ? at.bundle : await bundleOf(at);
  const { tools, actions, files } = await importHostCode(bundle, options.bundles);
  const mcpTools = options.mcpTools ?? (await loadMcpTools(at.graph, at.baseDir, flags));
  Object.assign(tools, mcpTools);
  // Retrying a model that is not there would only wait.
  const agent = new Agent(at.graph, {
    model,
    tools,
    actions,
    ...(none ? { config: { modelRetries: 0 } } : {}),
    ...(options.isolation ? { isolation: options.isolation } : {}),
  });
  return { agent, moduleFiles: files, tools, mcpTools, actions };
}
