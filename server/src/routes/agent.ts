import { Hono } from "hono";
import { z } from "zod";
import type { ServerContext } from "../context.js";
import { answer, type ApiPaths } from "./openapi-schemas.js";

/** The agent served: its name, its compiled graph (for a page to draw) and its last build's outcome (`serve --watch`). */
export function agentRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  app.get("/api/agent", (c) => {
    const { name, agent } = ctx.served();
    return c.json({ name, graph: agent.graph, build: ctx.agents.status(name) });
  });
  return app;
}

export const agentApi: ApiPaths = {
  "/api/agent": {
    get: {
      summary: "The agent, its compiled graph, and its last build's outcome (serve --watch)",
      responses: {
        200: answer(
          "the agent",
          z.object({
            name: z.string(),
            graph: z.object({}),
            build: z
              .object({
                ok: z.boolean(),
                at: z.int(),
                watching: z.boolean().meta({ description: "new builds may come (serve --watch)" }),
                message: z.string().optional(),
                diagnostics: z.string().optional(),
              })
              .meta({
                description:
                  "ok: the graph is the latest build's; else the latest save failed to build (message, and the compiler's diagnostics tsc-style) and the last good build goes on serving",
              }),
          }),
        ),
      },
    },
  },
};
