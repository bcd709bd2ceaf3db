/**
 * For load balancers and monitoring: `GET /healthz` (the process answers), `GET /readyz` (it takes
 * new turns: not draining, what the agent needs is up (the app's `readiness`), and its store takes a write) and `GET /metrics` (Prometheus text format).
 * `/healthz` and `/readyz` say nothing about threads, so they need no token (a balancer's probe
 * carries none); `/metrics` is behind the token when the server has one.
 */
import { Hono } from "hono";
import { clientMessage } from "../http/errors.js";
import type { ServerContext } from "../context.js";

/** A store that takes longer than this to answer is not ready. */
const PING_TIMEOUT_MS = 2000;

export function probeRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    if (ctx.lifecycle.draining) return c.json({ status: "draining", runs: ctx.runs.running }, 503);
    const damaged = ctx.storeFaults.why;
    if (damaged !== undefined) return c.json({ status: "store_unavailable", why: damaged }, 503);
    const workers = ctx.agents.unready;
    if (workers !== undefined)
      return c.json({ status: "workers_unavailable", why: workers, runs: ctx.runs.running }, 503);
    const down = ctx.readiness?.();
    if (down !== undefined) return c.json({ status: "dependency_down", why: down }, 503);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        ctx.store.ping(),
        new Promise(
          (_, reject) =>
            (timer = setTimeout(() => reject(new Error(`no answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS)),
        ),
      ]);
    } catch (err) {
      // Unauthenticated: it says what is wrong (the store's words), not where the store is.
      return c.json({ status: "store_unavailable", why: clientMessage((err as Error).message, ctx.store.where) }, 503);
    } finally {
      clearTimeout(timer);
    }
    return c.json({ status: "ready", runs: ctx.runs.running });
  });
  return app;
}

export function metricsRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  app.get("/metrics", async (c) => c.body(await ctx.metrics.text(), 200, { "content-type": ctx.metrics.contentType }));
  return app;
}
