/** `GET /openapi.json`: the API described in OpenAPI 3.1 (routes/openapi-document.ts). */
import { Hono } from "hono";
import type { ServerContext } from "../context.js";
import { openApiDocument } from "./openapi-document.js";

export function openApiRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  const document = openApiDocument(ctx.served().name, { playground: ctx.playground });
  app.get("/openapi.json", (c) => c.json(document));
  return app;
}
