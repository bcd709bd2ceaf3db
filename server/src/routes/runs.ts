/**
 * The run's own event stream, untranslated (what the playground reads): `POST
 * /api/threads/:id/runs` sends a message (or, with `message: null`, asks a new thread for the
 * agent's opening) and streams the run's events, `id:` its number, `event:` its type;
 * `GET /api/threads/:id/runs/latest/stream` resumes the latest run after `Last-Event-ID`.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { ServerContext } from "../context.js";
import { badRequest } from "../http/errors.js";
import { jsonBody, threadIdOf } from "../http/request.js";
import { lastEventId, sseResponse, type SseFrame } from "../http/sse.js";
import { eventsOf, latestRun, type RunSource } from "../runs/run-source.js";

const RunBody = z.object({
  message: z.string().nullable(),
  messageId: z.string().min(1).max(200).optional(),
});

export const RUN_STREAM_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive", "x-accel-buffering": "no" };

function runStream(ctx: ServerContext, source: RunSource, afterSeq: number): Response {
  return sseResponse(async function* (signal): AsyncGenerator<SseFrame> {
    for await (const e of eventsOf(ctx, source, afterSeq, signal)) yield { id: e.seq, event: e.event.type, data: JSON.stringify(e) };
  }, RUN_STREAM_HEADERS);
}

export function runsRoutes(ctx: ServerContext): Hono {
  const app = new Hono();

  app.post("/api/threads/:id/runs", async (c) => {
    const threadId = threadIdOf(c.req.param("id"));
    const body = await jsonBody(c, RunBody);
    if (body.message !== null && body.message.trim() === "") throw badRequest("message: empty; send text, or null for the agent's opening turn", "message");
    if (body.message !== null && body.message.length > ctx.limits.maxMessageChars) {
      throw badRequest(`message: longer than ${ctx.limits.maxMessageChars} characters`, "message");
    }
    const source = await ctx.runs.start(threadId, body.message, body.messageId);
    return runStream(ctx, source, 0);
  });

  app.get("/api/threads/:id/runs/latest/stream", async (c) => {
    const threadId = threadIdOf(c.req.param("id"));
    const after = lastEventId(c.req.header("last-event-id"));
    if (after === null) throw badRequest("Last-Event-ID: the number of the last event received is expected", "Last-Event-ID");
    const latest = await latestRun(ctx, threadId);
    if (!latest || (after === 0 && !latest.inProgress) || (!latest.inProgress && latest.lastSeq <= after)) return c.body(null, 204);
    return runStream(ctx, { kind: "run", runId: latest.runId }, after);
  });

  return app;
}
