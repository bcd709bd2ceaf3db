/**
 * The builds `autograms serve` serves: the first, and with --watch how to make the next on a save.
 * Without --watch, one build, its turns played in workers (or, with --workers 0, in the server's
 * thread). With --watch, each build in worker threads (worker-builds.ts: the server's thread
 * imports none of the agent's modules).
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import type { Agent } from "@autograms/runtime";
import type { PlaygroundSource, PoolBuild, ServerMetrics, TurnBudgets, WorkerOptions } from "@autograms/server";
import type { DiagnosticSink } from "./compile-agent.js";
import { loadAgentGraph, type LoadedAgent } from "./load-graph.js";
import { loadMcpTools } from "./mcp-tools.js";
import { chooseModel } from "./model.js";
import type { ModelFlags } from "./model-options.js";
import { agentOf } from "./open-agent.js";
import { agentProject } from "./project-files.js";
import type { ServeWorkerData } from "./serve-worker.js";
import { SERVE_WORKER, workerBuilds } from "./worker-builds.js";

/**
 * A build as it is served: the agent (under --watch, this thread's stand-in for it), what plays
 * it (worker options to make a pool, or a build on a pool under --watch; none: this thread), and
 * the sources the playground shows.
 */
export interface ServedBuild {
  agent: Agent;
  pool?: PoolBuild | WorkerOptions;
  sources: PlaygroundSource[];
  /** Lets go of what the build holds in this thread once no run plays it: its agent (its pool is closed by the server, after its runs). */
  close(): Promise<void>;
}

export interface BuildSettings {
  flags: { watch?: boolean; workers?: number; typecheck?: boolean };
  modelFlags: ModelFlags;
  budgets: Partial<TurnBudgets>;
  metrics: ServerMetrics;
  onLoaded?: ((loaded: LoadedAgent) => void) | undefined;
}

export async function servedBuilds(
  file: string,
  { flags, modelFlags, budgets, metrics, onLoaded }: BuildSettings,
): Promise<{ first: ServedBuild; rebuild?: (diagnostics: DiagnosticSink) => Promise<ServedBuild> }> {
  if (flags.watch) {
    // The model's flags are checked here, before any worker starts.
    await chooseModel(modelFlags, true);
    const make = workerBuilds(file, {
      modelFlags,
      budgets,
      ...(flags.workers !== undefined && { size: flags.workers }),
      typeCheck: flags.typecheck !== false,
    });
    const build = async (options: Parameters<typeof make>[0]): Promise<ServedBuild> => {
      const { agent, player, loaded, moduleFiles } = await make(options);
      return { agent, pool: player, sources: playgroundSources(loaded, moduleFiles), close: () => agent.close() };
    };
    return { first: await build({ onLoaded }), rebuild: (diagnostics) => build({ diagnostics }) };
  }
  const project = agentProject(file);
  const loaded = await loadAgentGraph(file, { project, typeCheck: flags.typecheck !== false });
  onLoaded?.(loaded);
  // The MCP servers are this thread's; the workers' MCP tools call them (each is started, or connected to, once).
  const mcpTools = await loadMcpTools(loaded.graph, loaded.baseDir, modelFlags);
  const at = {
    graph: loaded.graph,
    baseDir: loaded.baseDir,
    importer: loaded.source?.display ?? loaded.file,
    project,
  };
  const made = await agentOf(at, modelFlags, {
    modelRequired: true,
    wrapModel: (model) => metrics.timeModel(model),
    mcpTools,
  });
  const { agent } = made;
  // Each worker thread makes the agent again from the graph loaded here, with its own model client.
  const data: ServeWorkerData = { ...at, flags: modelFlags };
  const pool: WorkerOptions = {
    script: SERVE_WORKER,
    data,
    budgets,
    tools: mcpTools,
    ...(flags.workers === undefined ? {} : { size: flags.workers }),
    // An agent with no tool or action module of its own cannot exit or block this thread: its
    // turns, which mostly wait for the model, are played here until one proves CPU-heavy.
    ...(made.moduleFiles.length === 0 && { inline: agent }),
  };
  return {
    first: {
      agent,
      sources: playgroundSources(loaded, made.moduleFiles),
      close: () => agent.close(),
      ...(flags.workers === 0 ? {} : { pool }),
    },
  };
}

/**
 * What the playground shows beside the chat: the agent's source as it was compiled (the graph's
 * lines point into it) and its tool and action modules, read once now.
 */
function playgroundSources(loaded: LoadedAgent, moduleFiles: string[]): PlaygroundSource[] {
  const display = (path: string) => relative(process.cwd(), path).split("\\").join("/");
  const agent: PlaygroundSource[] = loaded.source
    ? [{ path: loaded.source.display, text: loaded.source.text, role: "agent" }]
    : [];
  return [
    ...agent,
    ...moduleFiles.map(
      (path): PlaygroundSource => ({ path: display(path), text: readFileSync(path, "utf8"), role: "module" }),
    ),
  ];
}
