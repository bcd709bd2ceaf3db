/**
 * `GET /api/metrics?range=hour|day|week`: the studio's metrics page, runs, tokens, cost, turn
 * latency and errors over time and per agent (usage/metrics-report.ts). Not `/metrics`, the
 * process's Prometheus counters (ops/).
 */
import { Hono } from "hono";
import { z } from "zod";
import type { ServerContext } from "../context.js";
import { badRequest } from "../http/errors.js";
import { MetricsReport, metricsReport, RANGES, type Range } from "../usage/metrics-report.js";
import { answer, error, type ApiPaths } from "./openapi-schemas.js";
import { agentParam, agentQuery } from "./runs-view.js";

export function metricsApiRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  app.get("/api/metrics", async (c) => {
    const range = c.req.query("range") ?? "day";
    if (!Object.hasOwn(RANGES, range)) throw badRequest(`range: one of ${Object.keys(RANGES).join(", ")}`, "range");
    const agent = agentParam(ctx, c.req.query("agent"));
    return c.json(
      await metricsReport(ctx.store, {
        range: range as Range,
        now: Date.now(),
        ...(agent !== undefined && { agent }),
        ...(ctx.prices && { prices: ctx.prices }),
      }),
    );
  });
  return app;
}

export const metricsApi: ApiPaths = {
  "/api/metrics": {
    get: {
      summary: "Runs, tokens, cost, turn latency and errors over the last hour, day or week, by time and agent",
      parameters: [
        { name: "range", in: "query", required: false, schema: z.enum(Object.keys(RANGES) as [Range, ...Range[]]) },
        agentQuery,
      ],
      responses: {
        200: answer("the report; `cut` when more runs started in the range than it reads", MetricsReport),
        400: error("a range it does not know"),
      },
    },
  },
};
