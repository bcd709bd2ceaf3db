import type { Hono } from "hono";
import type { ServerContext } from "../context.js";
import { errorResponse, HttpError, toHttpError } from "./errors.js";

/** Answers what a route throws as the API's JSON error (counted, the store's damage kept), and an unknown endpoint with 404. */
export function answerErrors(app: Hono, ctx: ServerContext): Hono {
  app.onError((err, c) => {
    ctx.storeFaults.saw(err);
    const e = toHttpError(err, ctx.store.where);
    ctx.metrics.httpError(e.status, e.code);
    return errorResponse(c, err, ctx.store.where);
  });
  app.notFound((c) =>
    errorResponse(
      c,
      new HttpError(404, "not_found", `no such endpoint: ${c.req.method} ${new URL(c.req.url).pathname}`),
    ),
  );
  return app;
}
