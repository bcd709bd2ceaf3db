// The OpenAPI document against the app it describes: every endpoint the app routes is in it, with
// its method, and nothing is in it that the app does not route, so a route added without its
// description (routes/openapi-document.ts says how) is caught here. Its schemas are JSON Schema
// made from the routes' zod schemas: the shared ones are referred to, never inlined.
import { describe, expect, it } from "vitest";
import { serverForFile } from "./support/harness.js";

const file = serverForFile("autograms-server-openapi-");

describe("the OpenAPI document", () => {
  it("lists exactly the endpoints the app routes", async () => {
    const t = file.server();
    const document = (await (await fetch(`${t.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const routed = t.server.app.routes
      // Middleware, and the playground's own files (its page's script, style, graph and sources),
      // the default agent's and each agent's under /agents/NAME/.
      .filter((r) => r.method !== "ALL" && !r.path.replace(/^\/agents\/:agent/, "").startsWith("/playground/"))
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
    expect(new Set(documented)).toEqual(new Set(routed));
  });

  it("refers to the shared schemas by name, and gives each operation's request body", async () => {
    const t = file.server();
    const document = await (await fetch(`${t.url}/openapi.json`)).json();
    expect(Object.keys(document.components.schemas).sort()).toEqual([
      "Error",
      "ThreadId",
      "ThreadInfo",
      "Turn",
      "Usage",
    ]);
    const fork = document.paths["/api/threads/{id}/fork"].post;
    expect(fork.parameters[0].schema).toEqual({ $ref: "#/components/schemas/ThreadId" });
    expect(fork.requestBody.content["application/json"].schema).toEqual({
      type: "object",
      properties: { turn: { type: "integer", minimum: 0 }, id: { $ref: "#/components/schemas/ThreadId" } },
      required: ["turn"],
    });
    expect(document.paths["/api/threads"].get.responses[400].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Error",
    });
    // AG-UI's body is @ag-ui/core's own schema, the one the route checks with.
    const agUi = document.paths["/ag-ui"].post.requestBody.content["application/json"].schema;
    expect(agUi.required).toEqual(expect.arrayContaining(["threadId", "runId", "messages"]));
  });
});
