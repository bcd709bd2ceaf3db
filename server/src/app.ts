/**
 * The HTTP application: one Hono app on which each part mounts its routes. A part is a function
 * `(ctx) => Hono` (the threads API, the AI SDK chat endpoint, the run stream, a protocol adapter,
 * the playground); `createApp` mounts the built-in ones and then any given, in order.
 */
import { Hono } from "hono";
import type { Agent, ChatModel } from "@autograms/runtime";
import type { Store } from "@autograms/store";
import { DEFAULT_LIMITS, type AutogramsApp, type ServerContext, type ServerLimits } from "./context.js";
import { checkToken } from "./http/auth.js";
import { checkOrigin } from "./http/browser-guards.js";
import { guard } from "./http/guard-stack.js";
import { answerErrors } from "./http/error-answers.js";
import { Lifecycle } from "./ops/lifecycle.js";
import { StoreFaults } from "./ops/store-faults.js";
import { DEFAULT_RESUME_WINDOW_MS, sweepRunEvents } from "./ops/run-event-sweep.js";
import { ServerMetrics } from "./ops/metrics.js";
import { metricsRoutes, probeRoutes } from "./ops/routes.js";
import { openApiRoutes } from "./routes/openapi-document.js";
import { chatRoutes } from "./routes/chat.js";
import { chatThreadRoutes } from "./routes/chat-thread.js";
import { runsRoutes } from "./routes/runs.js";
import { threadsRoutes } from "./routes/threads.js";
import { runsViewRoutes } from "./routes/runs-view.js";
import { metricsApiRoutes } from "./routes/metrics-api.js";
import { experimentsRoutes } from "./routes/experiments.js";
import { settingsRoutes } from "./routes/settings.js";
import { toolsRoutes } from "./routes/tools.js";
import { ModelChoices } from "./settings/model-choices.js";
import { ThreadTitles } from "./titles/thread-titles.js";
import { RunManager } from "./runs/run-manager.js";
import { DEFAULT_TURN_CALLS, TurnCalls, type TurnCallsLimits } from "./runs/turn-calls.js";
import { TurnPool, type WorkerOptions } from "./workers/turn-pool.js";
import { PoolBuild } from "./workers/pool-build.js";
import { InProcessPlayer, type TurnPlayer } from "./workers/turn-player.js";
import { checkAppOptions, type BusyPolicy, type StalePolicy } from "./app-options.js";
import type { TurnBudgets } from "./workers/turn-budget.js";
import { agUiRoutes } from "./routes/ag-ui.js";
import type { Prices } from "./usage/prices.js";
import {
  playgroundBuild,
  playgroundFiles,
  type PlaygroundOptions,
  type PlaygroundSource,
} from "./playground/routes.js";
import { agentRoutes, agentsRoutes } from "./routes/agents.js";
import { ServedAgents } from "./served-agents.js";

/** A part of the server: its routes, given what every part shares. */
export type RouteModule = (ctx: ServerContext) => Hono;

/** The parts every server has, mounted in this order. */
export const BUILT_IN_ROUTES: readonly RouteModule[] = [
  agentRoutes,
  threadsRoutes,
  settingsRoutes,
  toolsRoutes,
  runsRoutes,
  runsViewRoutes,
  metricsApiRoutes,
  chatRoutes,
  chatThreadRoutes,
  agUiRoutes,
  openApiRoutes,
  experimentsRoutes,
];

/** Another agent served beside the default one (`AppOptions.agents`), with what the playground shows of its sources. */
type AnotherAgent = Pick<AppOptions, "agent" | "workers"> & { sources?: readonly PlaygroundSource[] };

export interface AppOptions {
  /** The default agent: served by the routes at `/` (and under `/agents/NAME/`, as any other). */
  agent: Agent;
  /**
   * More agents, each served under its name (its graph's) at `/agents/NAME/`: the same routes as
   * the default agent's at `/`, its threads apart. Two agents of one name are refused.
   */
  agents?: readonly AnotherAgent[];
  store: Store;
  /**
   * The model the server was started with, as a thread's settings choose among its server's models
   * and set its sampling (`PUT /api/threads/:id/settings`); default: the agent's. Its turns may be
   * played elsewhere (worker threads make their own model): this one is asked only what it offers.
   */
  model?: ChatModel;
  /**
   * Name each thread after its first exchange with a short call of `model` (`serve --titles`):
   * made after the run ends, never holding up a turn; a failed call leaves the title unset.
   */
  titles?: boolean;
  /**
   * Busy policy for messages to a thread with a run in progress (default `reject`: 409; for
   * `POST /api/chat`, `enqueue`).
   */
  policy?: BusyPolicy;
  /**
   * A message to a thread that cannot resume on this agent (edited since: `stale_memory`):
   * `refuse` (default) answers 422 before any run starts; `restart` begins the conversation again.
   */
  onStale?: StalePolicy;
  /** When set, every request must carry `Authorization: Bearer <token>` (a bearer token's characters: letters, digits, -._~+/, = at its end). */
  token?: string;
  /**
   * The `Host` names answered (any other: 403 `forbidden_host`, before anything else); default
   * (or none listed): any. `listen` on a loopback address always checks: `localhost`, the bound address, and these.
   */
  allowedHosts?: readonly string[];
  /**
   * Origins of browser apps allowed to call the API across origins (CORS, preflights answered;
   * never with credentials). `*`: any origin, only with a token. A request that changes something
   * with an `Origin` header from another origin is refused (403 `forbidden_origin`).
   */
  cors?: readonly string[];
  limits?: Partial<ServerLimits>;
  /** How long a run's events wait to be written with the next ones (ms, default 100). */
  flushMs?: number;
  /**
   * How long after a run ends its stream can still be resumed (ms, default 300,000: five
   * minutes); then its events are dropped from the store and a resume of it is answered 410
   * `run_expired` (its turn stays in the thread's history).
   */
  resumeWindowMs?: number;
  /**
   * The process's Prometheus metrics (default: new ones). Give your own to time the model's calls
   * too: `metrics.timeModel(model)` for the agent's model.
   */
  metrics?: ServerMetrics;
  /** More parts (protocol adapters, the playground), mounted after the built-in ones. */
  routes?: readonly RouteModule[];
  /**
   * Play the turns in worker threads (docs/scaling.md): a script that makes the agent in each
   * (`serveTurns` from `@autograms/server/worker`), how many, and the per-turn budgets. Without
   * it, turns are played in the server's own thread (under `budgets`), where a turn's
   * computation holds up every request while it runs. A TurnPool (or a PoolBuild of one) made
   * already is used as it is (its workers' agent is the build `agent` stands for: `serve` with
   * a pool replaces it).
   */
  workers?: WorkerOptions | TurnPool | PoolBuild;
  /**
   * What tokens cost: model name -> price per million input and output tokens (docs/serving.md).
   * Without it, or for a model it does not name, the API shows tokens without a cost.
   */
  prices?: Prices;
  /** Bounds of the replays behind `GET .../turns/:seq/calls` (see `TurnCallsLimits` for the defaults). */
  turnCalls?: Partial<TurnCallsLimits>;
  /** Per-turn budgets when turns are played in this thread (with `workers`, theirs apply). */
  budgets?: Partial<TurnBudgets>;
  /**
   * The playground at `GET /` (default: on, its graph listed rather than drawn); `false`: none.
   * Its `sources` are the first build's, read once as the app is made (a build served later
   * brings its own: `serve`).
   */
  playground?: false | Omit<PlaygroundOptions, "graph">;
  /** New builds of the agent will be given (`serve`, `buildFailed`): `GET /api/agent` says so, and the playground follows them. */
  watching?: boolean;
  /**
   * Asked by `GET /readyz`: why turns cannot be played now (something the agent needs is down,
   * e.g. "MCP server 'shop' is down"), or undefined. Said to unauthenticated probes: no secrets.
   */
  readiness?: () => string | undefined;
}

export function createApp(options: AppOptions): AutogramsApp {
  checkAppOptions(options);
  if (options.token !== undefined) checkToken(options.token);
  const origins = (options.cors ?? []).map((o) => checkOrigin(o, options.token !== undefined));
  const policy = options.policy ?? "reject";
  const lifecycle = new Lifecycle();
  const metrics = options.metrics ?? new ServerMetrics();
  const storeFaults = new StoreFaults();
  const playerOf = ({ agent, workers }: AnotherAgent): TurnPlayer =>
    workers instanceof TurnPool || workers instanceof PoolBuild
      ? workers
      : workers
        ? new TurnPool(workers)
        : new InProcessPlayer(agent, options.budgets);
  const first: AnotherAgent = { ...options, sources: (options.playground || undefined)?.sources?.() ?? [] };
  const agents = new ServedAgents(
    [first, ...(options.agents ?? [])].map((a) => ({
      name: a.agent.graph.agent,
      agent: a.agent,
      player: playerOf(a),
      number: 1,
      sources: a.sources ?? [],
    })),
    options.watching ?? false,
  );
  const model = () => options.model ?? agents.current().agent.model;
  const titles = options.titles ? new ThreadTitles(options.store, model) : undefined;
  const runs = new RunManager(options.store, agents, {
    policy,
    ...(titles && { onServed: (threadId: string) => void titles.served(threadId) }),
    ...(options.onStale ? { onStale: options.onStale } : {}),
    admit: () => lifecycle.admit(),
    observer: metrics,
    onError: (err) => storeFaults.saw(err),
    ...(options.flushMs === undefined ? {} : { flushMs: options.flushMs }),
  });
  const stopSweep = sweepRunEvents(options.store, options.resumeWindowMs ?? DEFAULT_RESUME_WINDOW_MS, (err) =>
    storeFaults.saw(err),
  );
  metrics.countRunsWith(() => runs.running);
  metrics.countWorkersWith(() => agents.liveWorkerThreads);
  const ctx: ServerContext = {
    served: () => agents.current(),
    agents,
    store: options.store,
    policy,
    chatPolicy: options.policy ?? "enqueue",
    runs,
    turnCalls: new TurnCalls(options.store, { ...DEFAULT_TURN_CALLS, ...options.turnCalls }),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    lifecycle,
    storeFaults,
    metrics,
    playground: options.playground !== false,
    ...(options.readiness && { readiness: options.readiness }),
    ...(options.prices && { prices: options.prices }),
    modelChoices: new ModelChoices(model),
  };
  const app = guard(answerErrors(new Hono(), ctx), {
    // Without names listed, any Host: `listen` on a loopback address lists its own.
    hosts: options.allowedHosts,
    origins,
    token: options.token,
    beforeToken: [
      // A balancer's probes carry no token: they are answered before it is asked for.
      probeRoutes(ctx),
      // The playground's page holds nothing of the agent: served before the token check (see playgroundFiles).
      ...(ctx.playground ? [playgroundFiles()] : []),
    ],
    beforeBodyLimit: [metricsRoutes(ctx)],
    maxBodyBytes: ctx.limits.maxBodyBytes,
  });
  // One agent's routes, given the context serving it: the default agent's at `/`, each agent's under `/agents/NAME/`.
  const routesOf = (agentCtx: ServerContext): Hono => {
    const routes = answerErrors(new Hono(), agentCtx);
    for (const part of [...BUILT_IN_ROUTES, ...(options.routes ?? [])]) routes.route("/", part(agentCtx));
    if (options.playground !== false)
      routes.route(
        "/",
        playgroundBuild(() => {
          const { agent, sources } = agentCtx.served();
          return { graph: agent.graph, sources };
        }, options.playground?.drawGraph),
      );
    return routes;
  };
  app.route("/", agentsRoutes(ctx, routesOf));
  app.route("/", routesOf(ctx));
  return {
    app,
    ctx,
    ready: () => agents.ready(),
    close: () => {
      stopSweep();
      return runs.close();
    },
    serve: (build, name) => agents.serve(build, name),
    buildFailed: (message, diagnostics, name) => agents.failed(message, diagnostics, name),
  };
}
