import { resolve } from "node:path";
import { toSvg, type ViewOptions } from "@autograms/compiler";
import type { Graph } from "@autograms/runtime";
import { serveRebuilds } from "../live/serve-rebuilds.js";
import { openStore, type BusyPolicy, type StalePolicy } from "@autograms/store";
import { checkOrigin, isLoopback, listen, PoolBuild, ServerMetrics, shutdown } from "@autograms/server";
import { CliError } from "../agent-loading/cli-error.js";
import type { ModelFlags } from "../agent-loading/model-options.js";
import type { openAgent } from "../agent-loading/open-agent.js";
import { agentFiles } from "../agent-loading/agent-files.js";
import { closeAll, servedAgents, type ServedAgent } from "../agent-loading/served-agents.js";
import { mcpServersDown } from "../agent-loading/mcp-tools.js";
import { chooseModel } from "../agent-loading/model.js";
import { reporting } from "../agent-loading/report-error.js";
import { readPrices } from "../agent-loading/price-file.js";
import { storeUrl } from "../conversation/store-url.js";
import { vscodeLink } from "../debugger/graph-page.js";
import { tokenOf, type TokenFlags } from "../serving/token-flags.js";

export interface ServeFlags extends ModelFlags, TokenFlags {
  /** false with --no-typecheck. */
  typecheck?: boolean;
  store?: string;
  port: string;
  host: string;
  allowedHost: string[];
  cors: string[];
  busy?: BusyPolicy;
  onStale?: StalePolicy;
  watch?: boolean;
  leaseMs?: number;
  graceMs: number;
  resumeWindowMs?: number;
  /** Worker threads playing the turns; 0: the server's own thread. Default: the machine's cores. */
  workers?: number;
  turnTimeMs?: number;
  turnMemoryMb?: number;
  turnWallMs?: number;
  /** False with --no-playground. */
  playground: boolean;
  /** --prices: a JSON price table. */
  prices?: string;
  /** --titles: name each thread after its first exchange. */
  titles?: boolean;
}

/** The playground's picture of the graph, its nodes opening their lines in VS Code (the graph names its source relative to the working directory). */
function drawGraph(graph: Graph, options: ViewOptions): string {
  const file = graph.source?.file;
  return toSvg(graph, file === undefined ? options : { ...options, sourceLink: vscodeLink(resolve(file)) });
}

/** How often the server checks that the process that started it is still there. */
const PARENT_CHECK_MS = 500;

export function serveCommand(given: string[], flags: ServeFlags): Promise<void> {
  return reporting("serve", (onLoaded) => serve(given, flags, onLoaded), { traced: true });
}

async function serve(
  given: string[],
  flags: ServeFlags,
  onLoaded: Parameters<typeof openAgent>[2]["onLoaded"],
): Promise<void> {
  // The launcher may be killed while the server starts: its pid is read first, so that a parent
  // gone before the server listens is noticed too (read later, it would be the orphans' reaper's).
  const parent = process.ppid;
  if (flags.watch && flags.workers === 0)
    throw new CliError(
      "--watch plays each build in worker threads of its own, so that the modules of earlier builds can be let go (Node cannot unload a module from the server's thread): --workers 0 cannot go with it; give --workers 1 or more, or leave --workers out",
      2,
    );
  if (!/^\d{1,5}$/.test(flags.port) || Number(flags.port) > 65535)
    throw new CliError(`--port takes a port number (0 to 65535), not '${flags.port}'`, 2);
  const token = tokenOf(flags);
  if (!isLoopback(flags.host) && token === undefined) {
    throw new CliError(
      `--host ${flags.host} lets other machines in: give --token, --token-file or AUTOGRAMS_TOKEN so that every request must carry it`,
      2,
    );
  }
  for (const origin of flags.cors) {
    try {
      checkOrigin(origin, token !== undefined);
    } catch (err) {
      throw new CliError(`--${(err as Error).message}`, 2);
    }
  }
  const prices = flags.prices === undefined ? undefined : readPrices(flags.prices);
  // Clients watch the replies as they are written: the model streams them (the offline model word by word).
  const metrics = new ServerMetrics();
  const modelFlags: ModelFlags = {
    offline: flags.offline,
    offlinePace: flags.offlinePace,
    model: flags.model,
    baseUrl: flags.baseUrl,
    apiKeyEnv: flags.apiKeyEnv,
    mcpConfig: flags.mcpConfig,
    approveMcp: flags.approveMcp,
    stream: true,
  };
  const budgets = {
    ...(flags.turnTimeMs === undefined ? {} : { timeMs: flags.turnTimeMs }),
    ...(flags.turnMemoryMb === undefined ? {} : { memoryMb: flags.turnMemoryMb }),
    ...(flags.turnWallMs === undefined ? {} : { wallMs: flags.turnWallMs }),
  };
  const agents = await servedAgents(agentFiles(given), { flags, modelFlags, budgets, metrics, onLoaded });
  // The first agent is the default one: its routes are at / (every agent's under /agents/NAME/).
  const [{ first }, ...others] = agents as [ServedAgent, ...ServedAgent[]];
  // What a thread's settings choose among: this model's server's models (the turns' own models are
  // made where they are played, in the workers).
  const { model } = await chooseModel(modelFlags, true);
  const { agent } = first;
  const store = await openStore(
    storeUrl(flags.store),
    flags.leaseMs === undefined ? {} : { leaseMs: flags.leaseMs },
  ).catch(async (err) => {
    // A --watch build's workers are started already; the server would have closed them.
    await closeAll(agents);
    throw err;
  });
  let server;
  try {
    server = await listen({
      agent,
      store,
      metrics,
      host: flags.host.replace(/^\[(.*)\]$/, "$1"),
      port: Number(flags.port),
      ...(token ? { token } : {}),
      ...(flags.busy ? { policy: flags.busy } : {}),
      ...(flags.onStale ? { onStale: flags.onStale } : {}),
      allowedHosts: flags.allowedHost,
      cors: flags.cors,
      playground: flags.playground ? { drawGraph, sources: () => first.sources } : false,
      ...(first.pool ? { workers: first.pool } : { budgets }),
      agents: others.map(({ first: { agent, pool, sources } }) => ({ agent, sources, ...(pool && { workers: pool }) })),
      watching: flags.watch === true,
      ...(flags.resumeWindowMs === undefined ? {} : { resumeWindowMs: flags.resumeWindowMs }),
      readiness: mcpServersDown,
      model,
      ...(flags.titles && { titles: true }),
      ...(prices && { prices }),
    });
  } catch (err) {
    await store.close();
    const e = err as NodeJS.ErrnoException;
    if (e.code === "EADDRINUSE")
      throw new CliError(`port ${flags.port} on ${flags.host} is in use: choose another with --port (0: any free one)`);
    if (e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND")
      throw new CliError(`cannot listen on ${flags.host}: no such address on this machine`);
    throw err;
  }
  // Armed before 'listening' is printed: a client told the server is up may save at once, and a
  // save before the folder is watched would go unbuilt.
  const unwatchAll = agents.map((a) =>
    a.rebuild ? serveRebuilds(server, store, { ...a, rebuild: a.rebuild }) : () => {},
  );
  const unwatch = () => {
    for (const stop of unwatchAll) stop();
  };
  process.stdout.write(`listening on ${server.url}\n`);
  const threads = server.ctx.agents.workerThreads;
  const workers = `${threads} worker thread${threads === 1 ? "" : "s"}`;
  // An agent without modules of its own (`inline`) starts its workers only when a turn needs them.
  const inline = agents.filter(({ first: { pool } }) => pool && !(pool instanceof PoolBuild) && pool.inline).length;
  const played =
    threads === 0
      ? "turns played in the server's thread"
      : inline === agents.length
        ? `turns played in the server's thread until one proves CPU-heavy, then in ${workers}, started then`
        : `turns played in ${workers}${inline > 0 ? " (an agent without modules of its own: in the server's thread until a turn proves CPU-heavy)" : ""}`;
  if (flags.watch)
    for (const { file } of agents)
      process.stderr.write(`(watching ${file} and the modules beside it: a save builds it again)\n`);
  const served =
    others.length === 0
      ? `agent ${agent.graph.agent}`
      : `agents ${agents.map((a, i) => `${a.name} (${i === 0 ? "/, and " : ""}/agents/${a.name}/)`).join(", ")}`;
  process.stderr.write(
    `(${served}, threads in ${store.where}, ${played}${token ? ", bearer token required" : ""}; Ctrl-C stops)\n`,
  );
  // The first signal drains (a balancer takes the process out; runs in progress may finish within
  // the grace period); a second one stops the runs left at once. Either way the runs' ends are
  // stored and their threads released before the process exits 0.
  const running = server;
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) {
        process.off("SIGINT", stop).off("SIGTERM", stop);
        process.stderr.write("(stopping the runs in progress)\n");
        void running.close();
        return;
      }
      stopping = true;
      unwatch();
      const inProgress = running.ctx.runs.running;
      process.stderr.write(
        `(stopping${inProgress > 0 ? `: ${inProgress} run${inProgress === 1 ? "" : "s"} in progress, ${flags.graceMs} ms to finish` : ""})\n`,
      );
      void shutdown(running, { graceMs: flags.graceMs })
        .then(
          (r) =>
            r.stopped > 0 &&
            process.stderr.write(`(${r.stopped} run${r.stopped === 1 ? "" : "s"} stopped: the grace period ended)\n`),
        )
        .finally(() => store.close())
        .finally(resolve);
    };
    process.on("SIGINT", stop).on("SIGTERM", stop);
    // Started by a launcher (npx, a shell script) that is killed without passing the signal on,
    // the server would run on as an orphan: once its parent is gone, it stops as on SIGTERM.
    const orphaned = setInterval(() => {
      if (process.ppid === parent) return;
      clearInterval(orphaned);
      process.stderr.write("(the process that started this one is gone)\n");
      stop();
    }, PARENT_CHECK_MS);
    orphaned.unref();
  });
}
