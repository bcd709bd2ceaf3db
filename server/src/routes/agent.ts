import { Hono } from "hono";
import type { ServerContext } from "../context.js";

/** The agent served: its name, its compiled graph (for a page to draw) and its last build's outcome (`serve --watch`). */
export function agentRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  app.get("/api/agent", (c) => {
    const { name, agent } = ctx.served();
    return c.json({ name, graph: agent.graph, build: ctx.agents.status(name) });
  });
  return app;
}
