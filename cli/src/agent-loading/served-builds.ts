/**
 * The builds `autograms serve` serves: the first, and with --watch how to make the next on a save.
 * Without --watch, one build, its turns played in workers (or, with --workers 0, in the server's
 * thread). With --watch, each build in worker threads of their own (the server's thread imports
 * none of the agent's modules), or with --workers 0 each in the server's thread.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import type { Agent } from "@autograms/runtime";
import { TurnPool, type PlaygroundSource, type ServerMetrics, type WorkerOptions } from "@autograms/server";
import { CliError } from "./cli-error.js";
import type { DiagnosticSink } from "./compile-agent.js";
import { loadAgentGraph, type LoadedAgent } from "./load-graph.js";
import { openMcpTools } from "./mcp-tools.js";
import { chooseModel } from "./model.js";
import type { ModelFlags } from "./model-options.js";
import { agentOf, bundleOf, type GraphAt } from "./open-agent.js";
import { closeAtEnd } from "./command-scope.js";
import type { ServeWorkerData } from "./serve-worker.js";
import { standInAgent, type HostShape } from "./stand-in-agent.js";
import type { HostBundle } from "./tools.js";
import type { TurnBudgets } from "@autograms/server";

/**
 * A build as it is served: the agent (in worker mode under --watch, this thread's stand-in for
 * it), the worker threads that play it (a pool made, or how to make one; none: this thread plays
 * it), and the sources the playground shows.
 */
export interface ServedBuild {
  agent: Agent;
  pool?: TurnPool | WorkerOptions;
  sources: PlaygroundSource[];
  /** Lets go of what the build holds in this thread once no run plays it: its agent, and its MCP servers when this thread plays it under --watch (a pool's stop with the pool). */
  close(): Promise<void>;
}

export interface BuildSettings {
  flags: { watch?: boolean; workers?: number };
  modelFlags: ModelFlags;
  budgets: Partial<TurnBudgets>;
  metrics: ServerMetrics;
  onLoaded?: ((loaded: LoadedAgent) => void) | undefined;
}

type OnLoaded = BuildSettings["onLoaded"];

export async function servedBuilds(
  file: string,
  { flags, modelFlags, budgets, metrics, onLoaded }: BuildSettings,
): Promise<{ first: ServedBuild; rebuild: (diagnostics: DiagnosticSink) => Promise<ServedBuild> }> {
  // Each worker thread makes the agent again from the graph loaded here, with its own model client.
  const atOf = (loaded: LoadedAgent): GraphAt => ({
    graph: loaded.graph,
    baseDir: loaded.baseDir,
    importer: loaded.source?.display ?? loaded.file,
  });
  const poolOf = (loaded: LoadedAgent, bundle?: HostBundle): WorkerOptions => {
    const data: ServeWorkerData = { ...atOf(loaded), ...(bundle !== undefined && { bundle }), flags: modelFlags };
    return {
      script: new URL("./autograms-serve-worker.mjs", import.meta.url),
      data,
      budgets,
      ...(flags.workers === undefined ? {} : { size: flags.workers }),
    };
  };
  const inThread = flags.workers === 0;
  if (flags.watch && !inThread) {
    // Each build gets worker threads of its own, which load its tool and action modules; this
    // thread loads none of them (stand-in-agent.ts), so no copy stays here after a save.
    await chooseModel(modelFlags, true);
    const build = async (options: { diagnostics?: DiagnosticSink; onLoaded?: OnLoaded }): Promise<ServedBuild> => {
      const loaded = await loadAgentGraph(file, options.diagnostics ? { diagnostics: options.diagnostics } : {});
      options.onLoaded?.(loaded);
      // Bundled once here (esbuild runs none of the agent's code), imported by each worker.
      const bundle = await bundleOf(atOf(loaded));
      // The build's MCP servers are this thread's, shared by its workers, and stop with them.
      const mcp = await openMcpTools(loaded.graph, loaded.baseDir, modelFlags.mcpConfig);
      const pool = new TurnPool({ ...poolOf(loaded, bundle), tools: mcp.tools, onClose: mcp.close });
      let shape: HostShape;
      try {
        shape = (await pool.ready()) as HostShape;
      } catch (err) {
        await pool.close();
        // The factory's own message: the worker script's path says nothing to the user.
        const cause = (err as Error).cause;
        throw new CliError(typeof cause === "string" ? cause : (err as Error).message);
      }
      const agent = standInAgent(loaded.graph, shape);
      return { agent, pool, sources: playgroundSources(loaded, bundle?.files ?? []), close: () => agent.close() };
    };
    return { first: await build({ onLoaded }), rebuild: (diagnostics) => build({ diagnostics }) };
  }
  const bundles = new Map<string, Record<string, unknown>>();
  // Each build's MCP servers are its own (a save may import others), stopped when it is replaced;
  // those of the build served when the command ends stop then.
  const open = async (options: { diagnostics?: DiagnosticSink; onLoaded?: OnLoaded }) => {
    const loaded = await loadAgentGraph(file, options.diagnostics ? { diagnostics: options.diagnostics } : {});
    options.onLoaded?.(loaded);
    const mcp = await openMcpTools(loaded.graph, loaded.baseDir, modelFlags.mcpConfig);
    const stopMcp = once(mcp.close);
    closeAtEnd(stopMcp);
    let made;
    try {
      made = await agentOf(atOf(loaded), modelFlags, {
        modelRequired: true,
        bundles,
        wrapModel: (model) => metrics.timeModel(model),
        mcpTools: mcp.tools,
      });
    } catch (err) {
      await stopMcp();
      throw err;
    }
    const { agent } = made;
    return {
      agent,
      loaded,
      mcpTools: mcp.tools,
      sources: playgroundSources(loaded, made.moduleFiles),
      close: async () => void (await Promise.all([agent.close(), stopMcp()])),
    };
  };
  const { agent, sources, loaded, mcpTools, close } = await open({ onLoaded });
  // Without --watch the workers play this one build; with it (and --workers 0) every build is
  // played in this thread, which imports each new version of the modules (a copy per version stays).
  return {
    // The workers' MCP tools are this thread's: each MCP server is started (or connected to) once.
    first: {
      agent,
      sources,
      close,
      ...(inThread || flags.watch ? {} : { pool: { ...poolOf(loaded), tools: mcpTools } }),
    },
    rebuild: async (diagnostics) => {
      const { agent, sources, close } = await open({ diagnostics });
      return { agent, sources, close };
    },
  };
}

/** `close`, run once however often it is called. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
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
