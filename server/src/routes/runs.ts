/**
 * The run's own event stream, untranslated (what the playground reads): `POST
 * /api/threads/:id/runs` sends a message (or, with `message: null`, asks a new thread for the
 * agent's opening) and streams the run's events, `id:` its number, `event:` its type;
 * `GET /api/threads/:id/runs/latest/stream` resumes the latest run after `Last-Event-ID`.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { ServerContext } from "../context.js";
import { jsonBody, keepableText, messageText, threadIdOf } from "../http/request.js";
import { eventId } from "../http/event-id.js";
import { runEventJson } from "../runs/run-event-json.js";
import { UI_MESSAGE_STREAM_HEADERS } from "../protocols/ui-message-stream.js";
import { eventBatchesOf, runIdOf } from "../runs/run-source.js";
import { framesOfBatches, resumeResponse, streamRun, type RunStream } from "./run-stream.js";
import {
  body,
  error,
  lastEventIdParam,
  refusals,
  resumeRefusals,
  threadIdParam,
  type ApiPaths,
  stream,
} from "./openapi-schemas.js";

const RunBody = z.object({
  message: z.string().nullable(),
  messageId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: "idempotency key: sent again, the same turn is answered" }),
});

/** The UI message stream's headers without its protocol's marker: these frames are the run's own events. */
const { "x-vercel-ai-ui-message-stream": _, ...runStreamHeaders } = UI_MESSAGE_STREAM_HEADERS;
export const RUN_STREAM_HEADERS = runStreamHeaders;

export function runsRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  const stream: RunStream = {
    // A frame an event, numbered by the event's number.
    frames: (source, afterSeq, signal) => {
      const runId = runIdOf(source);
      return framesOfBatches(eventBatchesOf(ctx, source, afterSeq, signal), (e) => [
        // JSON.stringify(e), with a step's text as it was made (runs/step-text.ts).
        { id: eventId(runId, e.seq), event: e.event.type, data: `{"seq":${e.seq},"event":${runEventJson(e.event)}}` },
      ]);
    },
    headers: RUN_STREAM_HEADERS,
    what: "event",
  };

  app.post("/api/threads/:id/runs", async (c) => {
    const build = ctx.served();
    const threadId = threadIdOf(c.req.param("id"));
    const body = await jsonBody(c, RunBody);
    const message =
      body.message === null
        ? null
        : messageText(
            body.message,
            "message",
            ctx.limits.maxMessageChars,
            "empty; send text, or null for the agent's opening turn",
          );
    return streamRun(
      stream,
      await ctx.runs.start(threadId, message, keepableText(body.messageId, "messageId"), { build }),
    );
  });

  app.get("/api/threads/:id/runs/latest/stream", (c) =>
    resumeResponse(ctx, threadIdOf(c.req.param("id")), c.req.header("last-event-id"), stream),
  );

  return app;
}

export const runsApi: ApiPaths = {
  "/api/threads/{id}/runs": {
    post: {
      summary: "Send a message (or null: the agent's opening on a new thread) and stream the run's events",
      parameters: [threadIdParam],
      requestBody: body(RunBody),
      responses: {
        200: stream(
          "the run's events: `id:` `RUN:N`, N the event's number, `event:` its type, `data:` `{ seq, event }`",
          "NumberedRunEvent frames",
        ),
        400: error("bad input"),
        ...refusals,
      },
    },
  },
  "/api/threads/{id}/runs/latest/stream": {
    get: {
      summary: "Resume the run Last-Event-ID names (RUN:N) after its Nth event; without it, the run in progress",
      parameters: [threadIdParam, lastEventIdParam],
      responses: {
        ...resumeRefusals,
        200: stream("the rest of the run", "NumberedRunEvent frames"),
        204: { description: "no run in progress, or nothing after Last-Event-ID" },
        404: error("no such thread"),
      },
    },
  },
};
