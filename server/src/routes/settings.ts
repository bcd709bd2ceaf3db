/**
 * A thread's model settings: the models it may choose among (`GET /api/models`), and the model,
 * temperature and bound on tokens for its next runs (`PUT /api/threads/:id/settings`; `{}`: the
 * server's own again). `GET /api/threads/:id` shows them, and each turn the ones it ran with.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { ServerContext } from "../context.js";
import { badRequest, HttpError } from "../http/errors.js";
import { jsonBody, threadIdOf } from "../http/request.js";
import { isOwn } from "../own-thread.js";

const SettingsBody = z.record(z.string(), z.unknown(), {
  error: "must be an object ({ model?, temperature?, maxTokens? })",
});

export function settingsRoutes(ctx: ServerContext): Hono {
  const app = new Hono();

  app.get("/api/models", async (c) => c.json(await ctx.modelChoices.menu()));

  // A thread not made yet may be given its settings before its first message.
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
    ctx.threadSettings.set(id, body);
    return c.json({ id, settings: ctx.threadSettings.get(id) ?? null });
  });

  return app;
}
