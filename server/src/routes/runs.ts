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
import { jsonBody, keepableText, threadIdOf } from "../http/request.js";
import { sseResponse, type SseFrame } from "../http/sse.js";
import { eventId } from "../http/event-id.js";
import { eventsOf, runIdOf, type RunSource } from "../runs/run-source.js";
import { resumeResponse } from "./resume.js";

const RunBody = z.object({
  message: z.string().nullable(),
  messageId: z.string().min(1).max(200).optional(),
});

export const RUN_STREAM_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};

async function* runFrames(
  ctx: ServerContext,
  source: RunSource,
  afterSeq: number,
  signal: AbortSignal,
): AsyncGenerator<SseFrame> {
  const runId = runIdOf(source);
  for await (const e of eventsOf(ctx, source, afterSeq, signal))
    yield { id: eventId(runId, e.seq), event: e.event.type, data: JSON.stringify(e) };
}

export function runsRoutes(ctx: ServerContext): Hono {
  const app = new Hono();

  app.post("/api/threads/:id/runs", async (c) => {
    const threadId = threadIdOf(c.req.param("id"));
    const body = await jsonBody(c, RunBody);
    if (body.message !== null && body.message.trim() === "")
      throw badRequest("message: empty; send text, or null for the agent's opening turn", "message");
    if (body.message !== null && body.message.length > ctx.limits.maxMessageChars) {
      throw badRequest(`message: longer than ${ctx.limits.maxMessageChars} characters`, "message");
    }
    const source = await ctx.runs.start(
      threadId,
      keepableText(body.message, "message"),
      keepableText(body.messageId, "messageId"),
    );
    return sseResponse((signal) => runFrames(ctx, source, 0, signal), RUN_STREAM_HEADERS);
  });

  app.get("/api/threads/:id/runs/latest/stream", (c) =>
    resumeResponse(
      ctx,
      threadIdOf(c.req.param("id")),
      c.req.header("last-event-id"),
      (source, after, signal) => runFrames(ctx, source, after, signal),
      RUN_STREAM_HEADERS,
      "event",
    ),
  );

  return app;
}
