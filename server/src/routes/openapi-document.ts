/**
 * The OpenAPI 3.1 document of the HTTP API, made from what each route file says of its endpoints
 * (docs/serving.md says the same in prose). A route file describes its endpoints beside them, as
 * an exported `ApiPaths` (routes/openapi-schemas.ts) whose request schemas are the zod schemas the
 * route validates with; they become JSON Schema here (zod's `z.toJSONSchema`), the shared ones
 * (`COMPONENTS`) as `$ref`s. A new route file registers its endpoints by exporting its `ApiPaths`
 * and adding it to `ROUTE_PATHS` below.
 *
 * `GET /openapi.json` serves it and `GET /api/docs` the same as a page to read (openapi-page.ts):
 * both behind the token when the server has one, as they name the agent.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { ServerContext } from "../context.js";
import { agUiApi } from "./ag-ui.js";
import { chatApi } from "./chat.js";
import { chatThreadApi } from "./chat-thread.js";
import { agentApi, agentsApi } from "./agents.js";
import { experimentsApi } from "./experiments.js";
import { metricsApi } from "./metrics-api.js";
import { settingsApi } from "./settings.js";
import { toolsApi } from "./tools.js";
import { runsApi } from "./runs.js";
import { runsViewApi } from "./runs-view.js";
import { threadsApi } from "./threads.js";
import { answer, COMPONENTS, type ApiPaths } from "./openapi-schemas.js";
import { openApiPage, PAGE_CSP, type OpenApiDocument } from "./openapi-page.js";

/** The built-in route files' endpoints, in the document's order. */
const ROUTE_PATHS: readonly ApiPaths[] = [
  agentApi,
  threadsApi,
  runsApi,
  chatApi,
  chatThreadApi,
  agUiApi,
  runsViewApi,
  metricsApi,
  experimentsApi,
  settingsApi,
  toolsApi,
  agentsApi,
];

/** The playground's page (playground/routes.ts), listed when it is served. */
const playgroundApi: ApiPaths = {
  "/": {
    get: {
      summary: "The playground: a page to talk to the agent and watch it run",
      responses: { 200: { description: "HTML", content: { "text/html": {} } } },
    },
  },
  "/agents/{agent}/": {
    get: {
      summary:
        "The playground of one of the agents served (GET /api/agents); every route of the agent is under this path",
      parameters: [{ name: "agent", in: "path", required: true, schema: z.string() }],
      responses: { 200: { description: "HTML", content: { "text/html": {} } } },
    },
  },
};

/** This document and its page, the probes and the metrics (ops/routes.ts). */
const serverApi: ApiPaths = {
  "/openapi.json": { get: { summary: "This document", responses: { 200: { description: "OpenAPI 3.1" } } } },
  "/api/docs": {
    get: {
      summary: "This document as a page to read, made on the server (it loads nothing else)",
      responses: { 200: { description: "HTML", content: { "text/html": {} } } },
    },
  },
  "/healthz": {
    get: {
      summary: "Liveness: the process answers",
      security: [{}],
      responses: {
        200: answer('`{ status: "ok" }`', z.object({ status: z.literal("ok") })),
      },
    },
  },
  "/readyz": {
    get: {
      summary: "Readiness: the process takes new turns (not draining, its store answers, its worker threads all serve)",
      security: [{}],
      responses: {
        200: answer('`{ status: "ready", runs }`', z.object({ status: z.literal("ready"), runs: z.int() })),
        503: answer(
          '`{ status: "draining" }`; `{ status: "store_unavailable", why }`: the store cannot take a write or a request met its file damaged, and why (never where it is); `{ status: "workers_unavailable", why }`: fewer worker threads serve than the pool\'s size (one crashed and its replacement is starting, or a replacement could not be started; not while a worker the pool retired is replaced); or `{ status: "dependency_down", why }`: something the agent needs is down (an MCP server)',
          z.object({
            status: z.enum(["draining", "store_unavailable", "workers_unavailable", "dependency_down"]),
            why: z.string().optional(),
          }),
        ),
      },
    },
  },
  "/metrics": {
    get: {
      summary: "Prometheus metrics of this process (autograms_*)",
      responses: { 200: { description: "Prometheus text format", content: { "text/plain": {} } } },
    },
  },
};

const ROOT = "__root";
const uri = (id: string) => `#/components/schemas/${id}`;

/** The shared schemas as JSON Schema, and `schema` too (as ROOT), the shared ones in it as `$ref`s. */
function jsonSchemas(schema?: z.ZodType): Record<string, Record<string, unknown>> {
  const registry = z.registry<{ id: string }>();
  for (const [id, s] of Object.entries(COMPONENTS)) registry.add(s, { id });
  if (schema) registry.add(schema, { id: ROOT });
  const { schemas } = z.toJSONSchema(registry, {
    io: "input",
    unrepresentable: "any",
    uri,
    // `z.int()` says it is a safe integer: true of every number in JSON, and noise in the document.
    override: ({ jsonSchema: s }) => {
      if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
      if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
    },
  });
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _, $id: __, ...rest }]) => [id, rest]));
}

/** The description with each zod schema in it made JSON Schema. */
function resolved(value: unknown): unknown {
  if (value instanceof z.ZodType) {
    const name = Object.entries(COMPONENTS).find(([, s]) => s === value)?.[0];
    return name === undefined ? jsonSchemas(value)[ROOT] : { $ref: uri(name) };
  }
  if (Array.isArray(value)) return value.map(resolved);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolved(v)]));
}

/** `playground`: the server serves it at `GET /` (without it, `/` is an unknown endpoint and not listed). */
export function openApiDocument(agent: string, options: { playground: boolean }): OpenApiDocument {
  const paths = Object.assign({}, ...ROUTE_PATHS, options.playground ? playgroundApi : {}, serverApi) as ApiPaths;
  return {
    openapi: "3.1.0",
    info: {
      title: `autograms serve: ${agent}`,
      version: "1",
      description:
        "An AutoGRAMS agent over HTTP: the threads of its store, the AI SDK UI message stream (v1), AG-UI, and the run event stream.",
    },
    security: [{ bearer: [] }, {}],
    paths: resolved(paths) as OpenApiDocument["paths"],
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "required when the server was started with --token (or AUTOGRAMS_TOKEN)",
        },
      },
      schemas: jsonSchemas(),
    },
  };
}

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
