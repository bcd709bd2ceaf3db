/**
 * The studio's metrics (`GET /api/metrics`): runs, tokens, cost, turn latency (p50, p95) and
 * errors over the last hour, day or week, in time buckets and per agent. Made from the stored runs
 * (the store's `listRuns`, with each committed turn's trace for its tokens), read a page at a time
 * up to a bound on rows: tokens are kept inside each turn's packed trace, where SQL cannot sum them,
 * and percentiles are not portable SQL. Past the bound the report says so (`cut`) and covers the
 * most recent runs read.
 */
import { z } from "zod";
import type { Store } from "@autograms/store";
import type { Prices } from "./prices.js";
import { type PricedUsage, usageOf, usageTotal } from "./totals.js";

/** A run as the store lists it (`listRuns`). */
export type ListedRun = Awaited<ReturnType<Store["listRuns"]>>["runs"][number];

export const RANGES = {
  hour: { ms: 3_600_000, bucketMs: 300_000 },
  day: { ms: 86_400_000, bucketMs: 3_600_000 },
  week: { ms: 604_800_000, bucketMs: 86_400_000 },
} as const;

export type Range = keyof typeof RANGES;

/** The most runs a report reads (each with its turn's trace). */
export const MAX_METRICS_ROWS = 5000;

export const Figures = z.object({
  runs: z.int(),
  /** Runs by status (running, committed, failed, stopped, abandoned). */
  statuses: z.record(z.string(), z.int()),
  // A stop is asked for, not an error.
  errors: z.int().meta({ description: "failed and abandoned runs" }),
  inputTokens: z.int(),
  outputTokens: z.int(),
  cost: z.number().optional().meta({ description: "absent when some run's tokens had no price" }),
  // From the turn's start to its commit; null without any.
  p50: z.number().nullable().meta({ description: "committed turns' latency in ms" }),
  p95: z.number().nullable(),
});
export type Figures = z.infer<typeof Figures>;

/** What `GET /api/metrics` answers (the page reads it too). */
export const MetricsReport = z.object({
  range: z.string(),
  since: z.int(),
  until: z.int(),
  bucketMs: z.int(),
  total: Figures,
  buckets: z.array(Figures.extend({ start: z.int() })),
  agents: z.array(Figures.extend({ agent: z.string().nullable() })),
  /** Runs read. */
  rows: z.int(),
  /** More runs than MAX_METRICS_ROWS started in the range: the figures are those of the most recent. */
  cut: z.literal(true).optional(),
});
export type MetricsReport = z.infer<typeof MetricsReport>;

export async function metricsReport(
  store: Store,
  options: { range: Range; agent?: string; now: number; prices?: Prices; maxRows?: number },
): Promise<MetricsReport> {
  const { ms, bucketMs } = RANGES[options.range];
  const maxRows = options.maxRows ?? MAX_METRICS_ROWS;
  // Buckets end on a whole bucket after now, so that one hour's figures do not move every minute.
  const until = Math.ceil((options.now + 1) / bucketMs) * bucketMs;
  const since = until - ms;
  const runs: ListedRun[] = [];
  let after: string | undefined;
  let cut = false;
  do {
    const page = await store.listRuns({
      since,
      until,
      withTrace: true,
      limit: Math.min(1000, maxRows - runs.length),
      ...(options.agent !== undefined && { agent: options.agent }),
      ...(after !== undefined && { after }),
    });
    runs.push(...page.runs);
    after = page.next ?? undefined;
    cut = after !== undefined && runs.length >= maxRows;
  } while (after !== undefined && !cut);
  const buckets = Array.from({ length: ms / bucketMs }, (_, i) => ({
    start: since + i * bucketMs,
    runs: [] as ListedRun[],
  }));
  const agents = new Map<string | null, ListedRun[]>();
  for (const run of runs) {
    buckets[Math.floor((run.startedAt - since) / bucketMs)]?.runs.push(run);
    agents.set(run.agent, [...(agents.get(run.agent) ?? []), run]);
  }
  return {
    range: options.range,
    since,
    until,
    bucketMs,
    total: figures(runs, options.prices),
    buckets: buckets.map((b) => ({ start: b.start, ...figures(b.runs, options.prices) })),
    agents: [...agents].map(([agent, of]) => ({ agent, ...figures(of, options.prices) })),
    rows: runs.length,
    ...(cut && { cut: true as const }),
  };
}

function figures(runs: readonly ListedRun[], prices: Prices | undefined): Figures {
  const statuses: Record<string, number> = {};
  const usages: (PricedUsage | undefined)[] = [];
  const latencies: number[] = [];
  for (const run of runs) {
    statuses[run.status] = (statuses[run.status] ?? 0) + 1;
    if (run.trace) usages.push(usageTotal(run.trace.map(usageOf), prices));
    if (run.committedAt !== null && run.turnStartedAt !== null) latencies.push(run.committedAt - run.turnStartedAt);
  }
  const usage = usageTotal(usages);
  latencies.sort((a, b) => a - b);
  return {
    runs: runs.length,
    statuses,
    errors: (statuses.failed ?? 0) + (statuses.abandoned ?? 0),
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    ...(usage?.cost !== undefined && { cost: usage.cost }),
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
  };
}

/** The nearest-rank percentile of sorted values; null for none. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}
