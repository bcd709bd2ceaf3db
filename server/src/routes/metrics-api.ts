/**
 * `GET /api/metrics?range=hour|day|week`: the studio's metrics page, runs, tokens, cost, turn
 * latency and errors over time and per agent (usage/metrics-report.ts). Not `/metrics`, the
 * process's Prometheus counters (ops/).
 */
import { Hono } from "hono";
import type { ServerContext } from "../context.js";
import { badRequest } from "../http/errors.js";
import { metricsReport, RANGES, type Range } from "../usage/metrics-report.js";
import { agentParam } from "./runs-view.js";

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
