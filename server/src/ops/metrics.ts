/**
 * Prometheus metrics of one server process (prom-client), in a registry of its own rather than
 * prom-client's global one, so that several apps in one process (tests, a program serving two
 * agents) each count their own. Every name starts with `autograms_`.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ChatModel } from "@autograms/runtime";
import { droppedSpans, untracedTurns } from "@autograms/runtime/telemetry";
import type { RunEvent } from "../runs/run-events.js";
import type { RunObserver } from "../runs/run-manager.js";

/** Seconds: from a few milliseconds (an offline model, a replay) to a long answer. */
const TURN_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const MODEL_BUCKETS = [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** ChatModel methods that call the model, by the label they get. */
const MODEL_CALLS: Record<string, string> = { complete: "complete", choose: "choose", completeWithTools: "tools" };

export interface MetricsOptions {
  /** Also the process's own figures (CPU, memory, event loop lag, handles), prefixed `autograms_process_...` (default true). */
  processMetrics?: boolean;
}

export class ServerMetrics implements RunObserver {
  readonly registry = new Registry();
  private readonly registers = [this.registry];
  private readonly turns = new Counter({
    name: "autograms_turns_total",
    help: "Messages answered by this process: committed (the turn is stored), failed (a run error, nothing stored), replayed (a message id sent again after its turn)",
    labelNames: ["outcome"],
    registers: this.registers,
  });
  private readonly turnSeconds = new Histogram({
    name: "autograms_turn_duration_seconds",
    help: "Time of a run, from taking the thread to its end (the commit, or the error)",
    labelNames: ["outcome"],
    buckets: TURN_BUCKETS,
    registers: this.registers,
  });
  private readonly modelSeconds = new Histogram({
    name: "autograms_model_call_duration_seconds",
    help: "Time of each call to the model (complete, choose, tools), to its whole answer",
    labelNames: ["call", "outcome"],
    buckets: MODEL_BUCKETS,
    registers: this.registers,
  });
  private readonly errors = new Counter({
    name: "autograms_errors_total",
    help: "Errors by code: the run errors of this process's runs (lease_lost, stopped, the runtime's codes) and the API's 5xx answers",
    labelNames: ["code"],
    registers: this.registers,
  });
  private readonly busyRefusals = new Counter({
    name: "autograms_busy_refusals_total",
    help: "Messages refused because their thread had a run in progress (409 thread_busy)",
    registers: this.registers,
  });
  private readonly leasesExpired = new Counter({
    name: "autograms_leases_expired_total",
    help: "Threads this process took from a lease that had lapsed (its process killed or stalled)",
    registers: this.registers,
  });
  private readonly started = new Map<string, number>();
  private runsInProgress: () => number = () => 0;
  private workersAlive: () => number = () => 0;

  constructor(options: MetricsOptions = {}) {
    const registers = this.registers;
    // Figures read when the metrics are asked for: a gauge of now, a running total kept elsewhere.
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    const total = (name: string, help: string, read: () => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(read());
        },
      });
    gauge("autograms_runs_in_progress", "Runs executing in this process", () => this.runsInProgress());
    gauge(
      "autograms_worker_threads",
      "Worker threads running in this process: those playing the build served, and those of earlier builds (serve --watch) until their last run ends",
      () => this.workersAlive(),
    );
    total(
      "autograms_spans_dropped_total",
      "OpenTelemetry spans of this process dropped because the exporter was behind: the turns' spans from worker threads beyond the relay's queue, and those the exporter's own queue dropped",
      droppedSpans,
    );
    total(
      "autograms_turns_untraced_total",
      "Turns played in worker threads that were not traced because the exporter was behind (its queue half full when they started)",
      untracedTurns,
    );
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: "autograms_" });
  }

  /** Where the gauge of runs in progress reads its figure. */
  countRunsWith(count: () => number): void {
    this.runsInProgress = count;
  }

  /** Where the gauge of worker threads reads its figure. */
  countWorkersWith(count: () => number): void {
    this.workersAlive = count;
  }

  runEvent(runId: string, event: RunEvent): void {
    if (event.type === "run-start") {
      this.started.set(runId, performance.now());
    } else if (event.type === "run-finish" || event.type === "run-error") {
      const outcome = event.type === "run-finish" ? "committed" : "failed";
      const since = this.started.get(runId);
      this.started.delete(runId);
      this.turns.inc({ outcome });
      if (since !== undefined) this.turnSeconds.observe({ outcome }, (performance.now() - since) / 1000);
      if (event.type === "run-error") this.errors.inc({ code: event.code });
    }
  }

  leaseTaken(lease: { lapsedOwner?: string }): void {
    if (lease.lapsedOwner !== undefined) this.leasesExpired.inc();
  }

  replayed(): void {
    this.turns.inc({ outcome: "replayed" });
  }

  /** An error answer of the API (counted when it is a refusal for a busy thread, or a failure of the server). */
  httpError(status: number, code: string): void {
    if (code === "thread_busy") this.busyRefusals.inc();
    else if (status >= 500) this.errors.inc({ code });
  }

  /** The model, with each call timed (the same object to the runtime: a proxy keeps its other methods and checks). */
  timeModel<M extends ChatModel>(model: M): M {
    const seconds = this.modelSeconds;
    return new Proxy(model, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        const call = typeof key === "string" ? MODEL_CALLS[key] : undefined;
        if (call === undefined || typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          const end = seconds.startTimer({ call });
          try {
            const answer: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
            end({ outcome: "ok" });
            return answer;
          } catch (err) {
            end({ outcome: "error" });
            throw err;
          }
        };
      },
    });
  }

  /** The Prometheus text format. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
