import type { Hono } from "hono";
import type { Store } from "@autograms/store";
import type { BusyPolicy } from "./app-options.js";
import type { Lifecycle } from "./ops/lifecycle.js";
import type { StoreFaults } from "./ops/store-faults.js";
import type { ServerMetrics } from "./ops/metrics.js";
import type { RunManager } from "./runs/run-manager.js";
import type { TurnCalls } from "./runs/turn-calls.js";
import type { Prices } from "./usage/prices.js";
import type { ModelChoices } from "./settings/model-choices.js";
import type { ServedAgents } from "./served-agents.js";
import type { BuildToServe, ServedBuild } from "./served-build.js";

/** What every route module is given: the agent it serves, the store, and the runs of this process. */
export interface ServerContext {
  /**
   * The build of the agent these routes serve, served now: a request takes it once, as it starts,
   * and uses that build throughout (a new build may be served meanwhile).
   */
  served(): ServedBuild;
  /** Every agent served, by name, with its last build's outcome (`GET /api/agent` shows it). */
  agents: ServedAgents;
  store: Store;
  /** What a message for a busy thread does (the store's busy policies); default `reject`. */
  policy: BusyPolicy;
  /**
   * The same for `POST /api/chat`: the policy given, else `enqueue` (a chat page that sends while
   * a reply streams expects its message answered next, and useChat would hide a 409).
   */
  chatPolicy: BusyPolicy;
  runs: RunManager;
  /** What a committed turn sent and got back (`GET .../turns/:seq/calls`), replayed and kept. */
  turnCalls: TurnCalls;
  limits: ServerLimits;
  /** Draining (shutting down) or not: what `/readyz` says and whether new turns are taken. */
  lifecycle: Lifecycle;
  /** Damage the store's answers have shown (`/readyz` says it). */
  storeFaults: StoreFaults;
  /** This process's Prometheus metrics (`/metrics`). */
  metrics: ServerMetrics;
  /** Whether `GET /` serves the playground (the OpenAPI document lists it only then). */
  playground: boolean;
  /** Why turns cannot be played now (a dependency of the agent is down), asked by `/readyz`. */
  readiness?: () => string | undefined;
  /** What tokens cost, by model (`AppOptions.prices`): the API adds a cost to the usage it shows where priced. */
  prices?: Prices;
  /** The models and sampling a thread's settings may choose (`AppOptions.model`'s). */
  modelChoices: ModelChoices;
}

export interface ServerLimits {
  /** Largest request body accepted, in bytes (default 1 MiB); a larger one is refused with 413. */
  maxBodyBytes: number;
  /** Longest user message, in characters (default 100,000). */
  maxMessageChars: number;
}

export const DEFAULT_LIMITS: ServerLimits = { maxBodyBytes: 1024 * 1024, maxMessageChars: 100_000 };

/** An application made by `createApp`: what serving it and shutting it down work with. */
export interface AutogramsApp {
  app: Hono;
  ctx: ServerContext;
  /**
   * Serves this build of an agent now (hot reload; default: the default agent): every request that
   * starts from now on takes it; a run in progress finishes on the build it started with. When the
   * turns are played in worker threads, `pool` is the new build's (a TurnPool whose workers made
   * the agent, `ready()` resolved, or a PoolBuild made on the previous build's workers): the
   * previous one is closed once its last run ends, and its workers with the modules they loaded
   * are gone (a PoolBuild's end with the last build on them). `agent` is then the main thread's
   * view of the build (its graph, for the stale check, the threads API and the playground).
   */
  serve(build: BuildToServe, agent?: string): ServedBuild;
  /** A build of an agent (default: the default one) that failed: reported by `GET /api/agent` until the next good one. */
  buildFailed(message: string, diagnostics: string, agent?: string): void;
  /** Resolves once the turns can be played (the worker threads have made their agents); rejects with why they cannot. */
  ready(): Promise<void>;
  /** Stops the runs in progress (their threads released, their ends stored) and the worker threads; the store stays open. */
  close(): Promise<void>;
}
