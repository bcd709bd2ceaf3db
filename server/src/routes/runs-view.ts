/**
 * The runs of every thread, for the studio's runs view: `GET /api/runs` lists them newest first,
 * a page at a time, filtered by status, agent, time and error text (the store's `listRuns`), each
 * with its tokens and cost; `GET /api/runs/:id/spans` gives one run's span tree (traces/).
 */
import { Hono } from "hono";
import { z } from "zod";
import type { Store } from "@autograms/store";
import type { ServerContext } from "../context.js";
import { badRequest } from "../http/errors.js";
import { integerParam } from "../http/request.js";
import { runSpans } from "../traces/run-spans.js";
import { Span } from "../traces/span-tree.js";
import type { Prices } from "../usage/prices.js";
import { usageOf, usageTotal } from "../usage/totals.js";
import type { ListedRun } from "../usage/metrics-report.js";

type RunQuery = NonNullable<Parameters<Store["listRuns"]>[0]>;
type ListedRunStatus = NonNullable<RunQuery["status"]>[number];
import { answer, ApiUsage, error, type ApiPaths, type Parameter } from "./openapi-schemas.js";

/** The most runs a page of `GET /api/runs` holds (each is read with its turn's trace, for its tokens). */
export const MAX_RUNS_PAGE = 200;

/** A time given in a query: milliseconds since 1970. */
export function timeParam(raw: string | undefined, field: string): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw badRequest(`${field}: a time in milliseconds since 1970 is expected`, field);
  return Number(raw);
}

/**
 * The agent a query is about: the one served unless it names another (`*`: every agent), as the
 * threads API shows the served agent's threads only.
 */
export function agentParam(ctx: ServerContext, raw: string | undefined): string | undefined {
  if (raw === "*") return undefined;
  return raw || ctx.served().name;
}

/** A listed run as the API shows it: without its trace, with the tokens and cost the trace records. */
export function runJson(run: ListedRun, prices: Prices | undefined) {
  const { trace, ...rest } = run;
  const usage = trace ? usageTotal(trace.map(usageOf), prices) : undefined;
  // A committed run's time is its turn's (its record may have been written with the commit).
  const ms =
    run.committedAt !== null && run.turnStartedAt !== null
      ? run.committedAt - run.turnStartedAt
      : run.status === "running"
        ? null
        : run.updatedAt - run.startedAt;
  return { ...rest, ms, ...(usage && { usage }) };
}

export function runsViewRoutes(ctx: ServerContext): Hono {
  const app = new Hono();

  app.get("/api/runs", async (c) => {
    const q = c.req.query();
    const limit = integerParam(q.limit, "limit", 50);
    if (limit < 1 || limit > MAX_RUNS_PAGE) throw badRequest(`limit: from 1 to ${MAX_RUNS_PAGE}`, "limit");
    const agent = agentParam(ctx, q.agent);
    const since = timeParam(q.since, "since");
    const until = timeParam(q.until, "until");
    const query: RunQuery = {
      limit,
      withTrace: true,
      ...(q.after && { after: q.after }),
      ...(q.status && { status: q.status.split(",") as ListedRunStatus[] }),
      ...(agent !== undefined && { agent }),
      ...(since !== undefined && { since }),
      ...(until !== undefined && { until }),
      ...(q.error && { error: q.error }),
    };
    const page = await ctx.store.listRuns(query);
    return c.json({ runs: page.runs.map((r) => runJson(r, ctx.prices)), next: page.next });
  });

  app.get("/api/runs/:id/spans", async (c) => c.json(await runSpans(ctx.store, c.req.param("id"), ctx.prices)));

  return app;
}

const query = (name: string, description: string, schema: z.ZodType = z.string()): Parameter => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});

/** The `agent` query both runs pages take. */
export const agentQuery = query(
  "agent",
  "the agent whose runs are shown: the served one when absent, `*` for every agent",
);

const ApiListedRun = z.object({
  id: z.string(),
  threadId: z.string(),
  agent: z.string().nullable(),
  user: z.string().nullable(),
  turn: z.int(),
  follows: z.string().nullable().meta({ description: "the run this one followed in the same response (an opening)" }),
  status: z.enum(["running", "committed", "failed", "stopped", "abandoned"]),
  startedAt: z.int(),
  updatedAt: z.int(),
  turnStatus: z.string().nullable(),
  turnStartedAt: z.int().nullable(),
  committedAt: z.int().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  ms: z.int().nullable().meta({ description: "how long it took; null while running" }),
  usage: ApiUsage.optional(),
});

export const runsViewApi: ApiPaths = {
  "/api/runs": {
    get: {
      summary: "The runs of every thread, newest first, a page at a time, with their tokens and cost",
      parameters: [
        query("status", "a comma-separated list of running, committed, failed, stopped, abandoned"),
        agentQuery,
        query("since", "ms since 1970: runs started at or after", z.string().regex(/^\d{1,15}$/)),
        query("until", "ms since 1970: runs started before", z.string().regex(/^\d{1,15}$/)),
        query("error", "text the run's error contains (any case)"),
        query("limit", `runs on a page, 1 to ${MAX_RUNS_PAGE} (50)`, z.string().regex(/^\d+$/)),
        query("after", "the `next` of the page before"),
      ],
      responses: {
        200: answer("a page of runs", z.object({ runs: z.array(ApiListedRun), next: z.string().nullable() })),
        400: error("a bad filter (`field` names it)"),
      },
    },
  },
  "/api/runs/{id}/spans": {
    get: {
      summary: "A run's span tree: its turns, their nodes and their steps (model calls, tool calls, decisions)",
      parameters: [{ name: "id", in: "path", required: true, schema: z.string() }],
      responses: {
        200: answer(
          "the run and its turns' spans",
          z.object({ run: z.looseObject({ id: z.string() }), spans: z.array(Span) }),
        ),
        404: error("`unknown_run`"),
      },
    },
  },
};
