/**
 * The builds of an agent played in worker threads, for `serve --watch` and `chat --watch`: Node
 * cannot unload an ES module, so the command's own thread never imports the agent's tool and action
 * modules (a copy per save would stay loaded). It bundles them (esbuild runs none of their code)
 * and hands the bundle to workers, which import it and make the agent; it keeps a stand-in for that
 * agent (stand-in-agent.ts). A build whose bundle is the same as that of a build still open (a
 * save of the agent file alone) is made by that build's workers again from the new graph,
 * importing nothing anew; other builds get workers of their own. A pool's workers end with the
 * last build on it (closed by whoever plays on it, after its last run).
 */
import type { Agent } from "@autograms/runtime";
import { PoolBuild, TurnPool, type TurnBudgets } from "@autograms/server";
import { CliError } from "./cli-error.js";
import type { DiagnosticSink } from "./compile-agent.js";
import { loadAgentGraph, type LoadedAgent } from "./load-graph.js";
import { isMcpTool, openMcpTools } from "./mcp-tools.js";
import type { ModelFlags } from "./model-options.js";
import { bundleOf, type GraphAt } from "./open-agent.js";
import { agentProject } from "./project-files.js";
import type { ServeWorkerData } from "./serve-worker.js";
import { standInAgent, type HostShape } from "./stand-in-agent.js";

/** The worker script (cli/dist/autograms-serve-worker.mjs, beside the command's bundle). */
export const SERVE_WORKER = new URL("./autograms-serve-worker.mjs", import.meta.url);

export interface WorkerBuild {
  /** This thread's stand-in for the agent its workers made. */
  agent: Agent;
  /** Where its turns are played: close it once no turn plays on it (the workers end with the last build on them). */
  player: PoolBuild;
  loaded: LoadedAgent;
  /** The agent's tool and action modules the workers loaded (absolute paths). */
  moduleFiles: string[];
}

export interface WorkerBuildSettings {
  modelFlags: ModelFlags;
  budgets: Partial<TurnBudgets>;
  /** Worker threads per build (default: one per core). */
  size?: number;
  /** Each worker's heap limit, in MiB (default: the pool's). */
  heapLimitMb?: number;
  /** Type-check an agent (.ts) with TypeScript's checker too, on every build. */
  typeCheck?: boolean;
}

export type MakeBuild = (options: {
  diagnostics?: DiagnosticSink;
  onLoaded?: (loaded: LoadedAgent) => void;
}) => Promise<WorkerBuild>;

export function workerBuilds(file: string, settings: WorkerBuildSettings): MakeBuild {
  const { modelFlags, budgets, size, heapLimitMb, typeCheck } = settings;
  /** The builds made whose workers are still open, newest last: their bundles' code (null: no modules) and players. */
  let open: { code: string | null; player: PoolBuild }[] = [];
  // Fixed at the start: a save that turns a file into a link out of it is refused.
  const project = agentProject(file);
  return async ({ diagnostics, onLoaded }) => {
    const loaded = await loadAgentGraph(file, {
      project,
      ...(diagnostics && { diagnostics }),
      ...(typeCheck && { typeCheck }),
    });
    onLoaded?.(loaded);
    const at: GraphAt = {
      graph: loaded.graph,
      baseDir: loaded.baseDir,
      importer: loaded.source?.display ?? loaded.file,
      project,
    };
    // Bundled once here, imported by each worker.
    const bundle = await bundleOf(at);
    const data: ServeWorkerData = { ...at, bundle, flags: modelFlags };
    const code = bundle?.code ?? null;
    // MCP servers are started again for each build (their code may be what was saved), and the
    // workers offer what they held when they started: an agent with MCP tools gets new workers.
    const mcp = Object.values(loaded.graph.tools ?? {}).some(isMcpTool);
    open = open.filter((b) => !b.player.closed);
    const same = mcp ? undefined : open.filter((b) => b.code === code).at(-1);
    let made: { player: PoolBuild; shape: HostShape };
    try {
      made = same ? await sameWorkers(same.player, data) : await newWorkers(loaded, data);
    } catch (err) {
      // The factory's own message: the worker script's path says nothing to the user.
      const cause = (err as Error).cause;
      throw new CliError(typeof cause === "string" ? cause : (err as Error).message);
    }
    open.push({ code, player: made.player });
    return {
      agent: standInAgent(loaded.graph, made.shape),
      player: made.player,
      loaded,
      moduleFiles: bundle?.files ?? [],
    };
  };

  async function sameWorkers(player: PoolBuild, data: ServeWorkerData) {
    const { build, about } = await player.next(data);
    return { player: build, shape: about as HostShape };
  }

  async function newWorkers(loaded: LoadedAgent, data: ServeWorkerData) {
    // The build's MCP servers are this thread's, shared by its workers, and stop with them.
    const mcp = await openMcpTools(loaded.graph, loaded.baseDir, modelFlags);
    const pool = new TurnPool({
      script: SERVE_WORKER,
      data,
      budgets,
      ...(size !== undefined && { size }),
      ...(heapLimitMb !== undefined && { heapLimitMb }),
      tools: mcp.tools,
      onClose: mcp.close,
    });
    try {
      return { player: PoolBuild.first(pool), shape: (await pool.ready()) as HostShape };
    } catch (err) {
      await pool.close();
      throw err;
    }
  }
}
