/**
 * Many agents on one server: each agent's routes (the threads API, the chat endpoints, AG-UI, the
 * run streams, the playground's graph and sources) under `/agents/NAME/`, as the default agent's
 * are at `/`, and `GET /api/agents`, the agents served. A thread belongs to the agent whose turn
 * made it: under another agent's routes it is refused (409 `wrong_agent`). `GET /api/agent`, under
 * each agent's routes, is that one agent.
 */
import { Hono } from "hono";
import { mount } from "hono/mount";
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

/** `routesOf(ctx)`: an app answering one agent's routes, given the context that serves that agent. */
export function agentsRoutes(ctx: ServerContext, routesOf: (ctx: ServerContext) => Hono): Hono {
  const app = new Hono();
  const apps = new Map(
    ctx.agents.names.map((name) => [name, routesOf({ ...ctx, served: () => ctx.agents.current(name) })]),
  );
  app.get("/api/agents", (c) =>
    c.json({
      agents: ctx.agents.names.map((name) => ({
        name,
        default: name === ctx.agents.defaultName,
        path: `/agents/${encodeURIComponent(name)}/`,
        build: ctx.agents.status(name),
      })),
    }),
  );
  app.all(
    "/agents/:agent/*",
    (c, next) => {
      // An agent not served: 404 unknown_agent, naming those that are.
      ctx.agents.current(c.req.param("agent"));
      return next();
    },
    mount((request: Request, env: unknown, name: string) => apps.get(name)!.fetch(request, env), {
      optionHandler: (c) => [c.env, c.req.param("agent")],
    }),
  );
  return app;
}

export const agentsApi: ApiPaths = {
  "/api/agents": {
    get: {
      summary: "The agents this server serves; each one's routes are under its `path` (the default's at / too)",
      responses: {
        200: answer(
          "the agents, the default first",
          z.object({
            agents: z.array(
              z.object({
                name: z.string(),
                default: z.boolean(),
                path: z.string(),
                build: z.looseObject({ ok: z.boolean(), at: z.int(), watching: z.boolean() }),
              }),
            ),
          }),
        ),
      },
    },
  },
};
