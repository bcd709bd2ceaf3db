import { Hono } from "hono";
import type { ServerContext } from "../context.js";

/** The agent served: its name, its compiled graph (for a page to draw) and its last build's outcome (`serve --watch`). */
export function agentRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  app.get("/api/agent", (c) => c.json({ name: ctx.agent.graph.agent, graph: ctx.agent.graph, build: ctx.build }));
  return app;
}
