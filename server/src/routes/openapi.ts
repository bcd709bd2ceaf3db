/**
 * `GET /openapi.json`: the API described in OpenAPI 3.1 (routes/openapi-document.ts), and
 * `GET /api/docs`, the same as a page to read (routes/openapi-page.ts). Both behind the token when
 * the server has one, as they name the agent.
 */
import { Hono } from "hono";
import type { ServerContext } from "../context.js";
import { openApiDocument } from "./openapi-document.js";
import { openApiPage, PAGE_CSP } from "./openapi-page.js";

export function openApiRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  const document = openApiDocument(ctx.served().name, { playground: ctx.playground });
  app.get("/openapi.json", (c) => c.json(document));
  app.get("/api/docs", (c) =>
    c.html(openApiPage(document), 200, {
      "content-security-policy": PAGE_CSP,
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
    }),
  );
  return app;
}
