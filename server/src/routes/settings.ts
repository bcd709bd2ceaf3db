/**
 * A thread's model settings: the models it may choose among (`GET /api/models`), and the model,
 * temperature and bound on tokens for its next runs (`PUT /api/threads/:id/settings`; `{}`: the
 * server's own again), kept with the thread in the store (settings/stored-settings.ts).
 * `GET /api/threads/:id` shows them, and each turn the ones it ran with.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { ServerContext } from "../context.js";
import { badRequest, HttpError } from "../http/errors.js";
import { jsonBody, threadIdOf } from "../http/request.js";
import { isOwn } from "../own-thread.js";
import { ModelMenu } from "../settings/model-menu.js";
import { keepSettings } from "../settings/stored-settings.js";
import { answer, body, error, threadIdParam, type ApiPaths } from "./openapi-schemas.js";

const SettingsBody = z
  .record(z.string(), z.unknown(), { error: "must be an object ({ model?, temperature?, maxTokens? })" })
  .meta({
    description:
      "`model` (one of GET /api/models' `models`), `temperature` (0 to its `maxTemperature`), `maxTokens` (a whole number, at least 1); each left out keeps the server's own, `{}` gives them all back",
  });

const Settings = z.object({
  model: z.string().optional(),
  temperature: z.number().optional(),
  maxTokens: z.int().optional(),
});

export function settingsRoutes(ctx: ServerContext): Hono {
  const app = new Hono();

  app.get("/api/models", async (c) => c.json(await ctx.modelChoices.menu()));

  // A thread not made yet may be given its settings before its first message (the store makes it, with no turn).
  app.put("/api/threads/:id/settings", async (c) => {
    const id = threadIdOf(c.req.param("id"));
    const body = await jsonBody(c, SettingsBody);
    const problem = await ctx.modelChoices.problem(body);
    if (problem)
      throw problem.field === ""
        ? new HttpError(409, "not_settable", problem.message)
        : badRequest(`${problem.field}: ${problem.message}`, problem.field);
    const info = await ctx.store.thread(id);
    if (info && !isOwn(info, ctx.served().name)) throw new HttpError(404, "unknown_thread", `no thread '${id}'`);
    return c.json({ id, settings: await keepSettings(ctx.store, id, body) });
  });

  return app;
}

export const settingsApi: ApiPaths = {
  "/api/models": {
    get: {
      summary: "What a thread's model settings may choose among",
      responses: {
        200: answer(
          "the model the server was started with, the models a thread may choose, and what may be set",
          ModelMenu,
        ),
      },
    },
  },
  "/api/threads/{id}/settings": {
    put: {
      summary: "Chooses the model and sampling of a thread's next runs (kept with the thread in the store)",
      parameters: [threadIdParam],
      requestBody: body(SettingsBody),
      responses: {
        200: answer(
          "the thread's settings now (null: the server's own)",
          z.object({ id: z.string(), settings: Settings.nullable() }),
        ),
        400: error("a bad value (`field` names it)"),
        404: error("`unknown_thread`: another agent's thread"),
        409: error("`not_settable`: the model takes no settings (the offline model)"),
      },
    },
  },
};
