/**
 * `POST /api/chat`: the Vercel AI SDK's chat endpoint (`useChat`, assistant-ui). The thread is the
 * request's `id`; the new turn is the last message, a user message, whose `id` is the turn's
 * idempotency key. The client's copy of the earlier messages is not read: the thread's history is
 * the store's. `GET /api/chat/:id/stream` resumes the thread's run (the AI SDK's `resume`).
 */
import { Hono } from "hono";
import { z } from "zod";
import type { ServerContext } from "../context.js";
import { badRequest, HttpError } from "../http/errors.js";
import { jsonBody, keepableText, threadIdOf } from "../http/request.js";
import { sseResponse, type SseFrame } from "../http/sse.js";
import { UI_MESSAGE_STREAM_HEADERS, UiMessageTranslator } from "../protocols/ui-message-stream.js";
import { eventId } from "../http/event-id.js";
import { eventsOf, runIdOf, type RunSource } from "../runs/run-source.js";
import { resumeResponse } from "./resume.js";

const Part = z.looseObject({ type: z.string() });
const Message = z.looseObject({
  id: z.string().min(1).max(200),
  role: z.enum(["system", "user", "assistant"]),
  parts: z.array(Part),
});
const ChatBody = z.looseObject({
  id: z.unknown(),
  messages: z.array(Message).min(1),
  trigger: z.enum(["submit-message", "regenerate-message"]).optional(),
});

/** The message's text: its text parts, in order. Other parts (files, tool results) the agent cannot take. */
function textOf(message: z.infer<typeof Message>, at: number, maxChars: number): string {
  const field = `messages[${at}].parts`;
  const parts = message.parts.filter((p) => p.type === "text");
  if (parts.some((p) => typeof p.text !== "string")) throw badRequest(`${field}: a text part's text must be a string`, field);
  const text = parts.map((p) => p.text as string).join("");
  if (text.trim() === "") throw badRequest(`${field}: the message has no text (the agent takes text parts only)`, field);
  if (text.length > maxChars) throw badRequest(`${field}: the message is longer than ${maxChars} characters`, field);
  return text;
}

/** The UI message stream's frames of a run, those after `afterFrame` only. */
async function* uiFrames(ctx: ServerContext, source: RunSource, afterFrame: number, signal: AbortSignal): AsyncGenerator<SseFrame> {
  const translator = new UiMessageTranslator();
  const runId = runIdOf(source);
  for await (const e of eventsOf(ctx, source, 0, signal)) {
    for (const f of translator.translate(e)) {
      if (f.id > afterFrame) yield { id: eventId(runId, f.id), data: f.data === "[DONE]" ? "[DONE]" : JSON.stringify(f.data) };
    }
  }
}

export function chatRoutes(ctx: ServerContext): Hono {
  const app = new Hono();

  app.post("/api/chat", async (c) => {
    const body = await jsonBody(c, ChatBody);
    const threadId = threadIdOf(body.id, "id");
    if (body.trigger === "regenerate-message") {
      throw new HttpError(400, "unsupported", "trigger: regenerate-message is not supported: a thread's turns are kept as they were; fork the thread at an earlier turn (POST /api/threads/:id/fork) to answer again", "trigger");
    }
    const at = body.messages.length - 1;
    const last = body.messages[at]!;
    if (last.role !== "user") throw badRequest(`messages[${at}].role: the last message must be the user's new message`, `messages[${at}].role`);
    const text = textOf(last, at, ctx.limits.maxMessageChars);
    const source = await ctx.runs.start(threadId, keepableText(text, `messages[${at}].parts`), keepableText(last.id, `messages[${at}].id`));
    return sseResponse((signal) => uiFrames(ctx, source, 0, signal), UI_MESSAGE_STREAM_HEADERS);
  });

  app.get("/api/chat/:id/stream", (c) => resumeResponse(ctx, threadIdOf(c.req.param("id")), c.req.header("last-event-id"),
    (source, after, signal) => uiFrames(ctx, source, after, signal), UI_MESSAGE_STREAM_HEADERS, "frame"));

  return app;
}
