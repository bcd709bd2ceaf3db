/**
 * The tool playground's API: the served agent's tools (`GET /api/tools`: its defineTool tools and
 * its MCP servers' tools with their JSON Schemas, its plain functions with none) and one call of
 * one of them outside any turn (`POST /api/tools/:name/call`). The call runs where the build's
 * turns are played (`TurnPlayer.callTool`): in a worker thread when workers play them, so a tool
 * that loops or ends its thread cannot take the server with it; in the server's own thread only
 * where the turns are played there too. A tool's own failure is an answer (`{ error }`), not a
 * refusal of the request.
 */
import { Hono } from "hono";
import { z } from "zod";
import { argumentsProblem } from "@autograms/runtime";
import type { ServerContext } from "../context.js";
import { HttpError } from "../http/errors.js";
import { jsonBody } from "../http/request.js";
import { answer, body, error, type ApiPaths } from "./openapi-schemas.js";

/** How long one call may take before it is stopped (its signal aborted) and answered 504. */
export const TOOL_CALL_MS = 30_000;

const CallBody = z
  .object({
    arguments: z
      .union([z.record(z.string(), z.unknown()), z.array(z.unknown())], {
        error: "must be an object of the tool's arguments (or, for a tool without a schema, an array)",
      })
      .optional()
      .meta({
        description:
          "the tool's arguments: an object, checked against its JSON Schema (left out: `{}`); for a plain function (no schema), an array is its argument list, as the agent's code passes it, and an object its one argument (left out: none)",
      }),
  })
  .meta({ description: "`{ arguments }`" });

const ToolInfo = z.object({
  name: z.string().meta({ description: "the name the agent was given the tool by" }),
  description: z.string().optional(),
  parameters: z
    .record(z.string(), z.unknown())
    .nullable()
    .meta({ description: "JSON Schema of the arguments object; null for a plain function, which has none" }),
});

const CallAnswer = z.union([
  z.object({ result: z.unknown().meta({ description: "what the tool returned (null for nothing)" }) }),
  z.object({
    error: z.object({
      code: z.literal("tool_failed"),
      message: z.string().meta({
        description: "the tool's own error message, or why the worker thread running it ended",
      }),
    }),
  }),
]);

const toolNameParam = {
  name: "name",
  in: "path" as const,
  required: true,
  description: "one of GET /api/tools' names",
  schema: z.string(),
};

/** The tool's answer, or its failure; past `ms` the signal is aborted and the call refused with 504. */
async function callWithin(call: (signal: AbortSignal) => Promise<unknown>, name: string, ms: number) {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Refused first: a call that fails at once when stopped (in a worker) fails as late, not as the tool's failure.
      reject(new HttpError(504, "tool_timeout", `tool '${name}' did not answer within ${ms / 1000} s; it was stopped`));
      controller.abort(new Error(`stopped after ${ms} ms`));
    }, ms);
  });
  try {
    return { result: (await Promise.race([call(controller.signal), late])) ?? null };
  } catch (err) {
    if (err instanceof HttpError) throw err;
    return { error: { code: "tool_failed" as const, message: err instanceof Error ? err.message : String(err) } };
  } finally {
    clearTimeout(timer);
  }
}

export function toolsRoutes(ctx: ServerContext): Hono {
  const app = new Hono();

  app.get("/api/tools", (c) => c.json({ tools: ctx.served().agent.listTools() }));

  app.post("/api/tools/:name/call", async (c) => {
    const name = c.req.param("name");
    const build = ctx.served();
    const tool = build.agent.listTools().find((t) => t.name === name);
    if (!tool) throw new HttpError(404, "unknown_tool", `the agent has no tool '${name}' (GET /api/tools lists them)`);
    const given = (await jsonBody(c, CallBody)).arguments;
    const args = given ?? (tool.parameters === null ? [] : {});
    if (tool.parameters !== null) {
      if (Array.isArray(args))
        throw new HttpError(400, "bad_request", "arguments: must be an object of the tool's arguments", "arguments");
      const problem = argumentsProblem(tool.parameters, args);
      if (problem !== undefined) throw new HttpError(400, "bad_arguments", problem, "arguments");
    }
    // The build's player stays open while the call runs (a new build served meanwhile closes the old one after).
    const player = ctx.agents.hold(build);
    const answer = await callWithin(
      (signal) => player.callTool({ agent: build.agent, name, args, signal }),
      name,
      TOOL_CALL_MS,
    ).finally(() => ctx.agents.letGo(player));
    // A result JSON cannot carry (a cycle, a BigInt) is the tool's failure to answer, not the server's.
    try {
      JSON.stringify(answer);
    } catch (err) {
      return c.json({ error: { code: "tool_failed", message: `its result is not JSON: ${(err as Error).message}` } });
    }
    return c.json(answer);
  });

  return app;
}

export const toolsApi: ApiPaths = {
  "/api/tools": {
    get: {
      summary: "The agent's tools (defineTool, MCP servers' tools and plain functions), for the tool playground",
      responses: {
        200: answer(
          "each tool's name, description and argument schema (null: a plain function)",
          z.object({ tools: z.array(ToolInfo) }),
        ),
      },
    },
  },
  "/api/tools/{name}/call": {
    post: {
      summary:
        "Calls one of the agent's tools outside any turn, where its turns are played (a worker thread when workers play them), for at most 30 s",
      parameters: [toolNameParam],
      requestBody: body(CallBody),
      responses: {
        200: answer(
          "the tool's result, or its failure (`tool_failed`: what it threw, or the worker thread it ended or blocked)",
          CallAnswer,
        ),
        400: error("a bad body (`field` names it), or `bad_arguments`: the arguments fail the tool's schema"),
        404: error("`unknown_tool`: no tool of that name"),
        504: error("`tool_timeout`: the tool did not answer in 30 s; its call was aborted"),
      },
    },
  },
};
