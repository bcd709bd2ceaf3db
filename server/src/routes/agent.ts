import { Hono } from "hono";
import type { ServerContext } from "../context.js";

/** The agent served: its name and its compiled graph (for a page to draw). */
export function agentRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  app.get("/api/agent", (c) => c.json({ name: ctx.agent.graph.agent, graph: ctx.agent.graph }));
  return app;
}
