/**
 * `POST /api/chat`: the Vercel AI SDK's chat endpoint (`useChat`, assistant-ui). The thread is the
 * request's `id`; the new turn is the last message, a user message, whose `id` is the turn's
 * idempotency key. Without any user message it asks for the agent's opening; with `trigger:
 * "regenerate-message"`, for the last reply again. The client's copy of the earlier messages is
 * not read, nor checked: the thread's history is the store's. `GET /api/chat/:id/stream` resumes
 * the thread's run (the AI SDK's `resume`).
 */
import { Hono } from "hono";
import { z } from "zod";
import type { ServerContext } from "../context.js";
import type { ServedBuild } from "../served-build.js";
import { knownThread, ownThread } from "../own-thread.js";
import { replyMessageId } from "../protocols/ui-messages.js";
import { replayOf } from "../runs/run-manager.js";
import { badRequest, HttpError } from "../http/errors.js";
import { jsonBody, keepableText, messageText, threadIdOf } from "../http/request.js";
import { lastChecked } from "../http/last-checked.js";
import { UI_MESSAGE_STREAM_HEADERS, UiMessageTranslator } from "../protocols/ui-message-stream.js";
import { eventId } from "../http/event-id.js";
import { eventBatchesOf, runIdOf, type RunSource } from "../runs/run-source.js";
import { framesOfBatches, resumeResponse, streamRun, type RunStream } from "./run-stream.js";
import {
  body,
  error,
  lastEventIdParam,
  resumeRefusals,
  threadIdParam,
  ThreadId,
  type ApiPaths,
  stream,
} from "./openapi-schemas.js";

const Part = z.looseObject({ type: z.string() });
const Message = z.looseObject({
  id: z.string().min(1).max(200),
  role: z.enum(["system", "user", "assistant"]),
  parts: z.array(Part),
});
const ChatBody = z.looseObject({
  id: z.unknown(),
  messages: z
    .array(Message)
    .meta({ description: "the last one, the user's, is the turn; none of the user's: the agent's opening" }),
  trigger: z.enum(["submit-message", "regenerate-message"]).optional().meta({
    description: "regenerate-message: the last turn run again from the memory before it, replacing it",
  }),
  messageId: z
    .string()
    .optional()
    .meta({ description: "regenerate-message: the reply to generate again (the last, reply-<turn>)" }),
});

type Message = z.infer<typeof Message>;

/** The body as the route reads it: of `messages`, the last one checked, the turn (http/last-checked.ts). */
const ChatRequest = ChatBody.extend({ messages: lastChecked(Message) });

/** Whether an earlier message, not otherwise read, is the user's. */
const isUsers = (message: unknown): boolean =>
  typeof message === "object" && message !== null && (message as { role?: unknown }).role === "user";

/** The message's text: its text parts, in order. Other parts (files, tool results) the agent cannot take. */
function textOf(message: Message, at: number, maxChars: number): string {
  const field = `messages[${at}].parts`;
  const parts = message.parts.filter((p) => p.type === "text");
  if (parts.some((p) => typeof p.text !== "string"))
    throw badRequest(`${field}: a text part's text must be a string`, field);
  const text = parts.map((p) => p.text as string).join("");
  return messageText(text, field, maxChars, "the message has no text (the agent takes text parts only)");
}

/**
 * The agent's opening, asked for by a chat with no user message: the run making it, the turn that
 * made it (a page that asks twice gets the same opening), or a new run.
 */
async function opening(ctx: ServerContext, build: ServedBuild, threadId: string, retried = false): Promise<RunSource> {
  const info = await ownThread(ctx.store, build.name, threadId);
  if (info?.running && info.running.messageId === null && info.version === 0) {
    const run = ctx.runs.liveOn(threadId) ?? (await ctx.store.latestRun(threadId));
    if (run) return { kind: "run", runId: run.id };
  }
  if (info && info.version > 0) {
    const [first] = await ctx.store.turns(threadId);
    if (info.version === 1 && first?.user === null && first.status === "ok")
      return { kind: "replay", events: replayOf(threadId, first, info.done) };
    throw badRequest(
      `messages: a chat with no user message asks for the agent's opening, which thread ${threadId} has had (it has ${info.version} turns)`,
      "messages",
    );
  }
  try {
    return await ctx.runs.start(threadId, null, undefined, { policy: ctx.chatPolicy, build });
  } catch (err) {
    // Another request made the opening while this one waited for the thread: that one is the answer.
    if (!retried && err instanceof HttpError && err.status === 400) return opening(ctx, build, threadId, true);
    throw err;
  }
}

/** The last reply asked for again: the thread's last turn, run again from the memory before it. */
async function regenerate(
  ctx: ServerContext,
  build: ServedBuild,
  threadId: string,
  messageId: string | undefined,
): Promise<RunSource> {
  await knownThread(ctx.store, build.name, threadId, ctx.agents.names);
  const last = (await ctx.store.turns(threadId)).at(-1);
  if (!last) throw badRequest(`trigger: thread ${threadId} has no reply to generate again`, "trigger");
  if (messageId !== undefined && messageId !== replyMessageId(last.seq)) {
    throw badRequest(
      `messageId: only the last reply (${replyMessageId(last.seq)}) can be generated again; fork the thread at an earlier turn (POST /api/threads/:id/fork) to answer an older one`,
      "messageId",
    );
  }
  return ctx.runs.start(threadId, last.user, last.messageId ?? undefined, {
    policy: ctx.chatPolicy,
    replaces: last.seq,
    build,
  });
}

export function chatRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  const stream: RunStream = {
    // Translated from the run's first event: the translator numbers the frames, and sends those after `after`.
    frames: (source, after, signal) => {
      const translator = new UiMessageTranslator();
      const runId = runIdOf(source);
      return framesOfBatches(eventBatchesOf(ctx, source, 0, signal), (e) =>
        translator.translate(e, after).map((f) => ({ id: eventId(runId, f.id), data: f.data })),
      );
    },
    headers: UI_MESSAGE_STREAM_HEADERS,
    what: "frame",
  };

  app.post("/api/chat", async (c) => {
    const build = ctx.served();
    const body = await jsonBody(c, ChatRequest);
    const at = body.messages.length - 1;
    // Checked by ChatRequest, as it was sent (a loose object keeps what it does not know).
    const last = body.messages[at] as Message | undefined;
    const threadId = threadIdOf(body.id, "id");
    if (body.trigger === "regenerate-message")
      return streamRun(stream, await regenerate(ctx, build, threadId, body.messageId));
    if (last?.role !== "user") {
      if (!body.messages.some(isUsers)) return streamRun(stream, await opening(ctx, build, threadId));
      throw badRequest(`messages[${at}].role: the last message must be the user's new message`, `messages[${at}].role`);
    }
    const text = textOf(last, at, ctx.limits.maxMessageChars);
    const started = await ctx.runs.start(threadId, text, keepableText(last.id, `messages[${at}].id`), {
      policy: ctx.chatPolicy,
      build,
    });
    return streamRun(stream, started);
  });

  app.get("/api/chat/:id/stream", (c) =>
    resumeResponse(ctx, threadIdOf(c.req.param("id")), c.req.header("last-event-id"), stream),
  );

  return app;
}

export const chatApi: ApiPaths = {
  "/api/chat": {
    post: {
      summary: "The Vercel AI SDK chat endpoint (UI message stream protocol v1)",
      // The id is checked as a thread id (`threadIdOf`) once the body is read.
      requestBody: body(ChatBody.extend({ id: ThreadId })),
      responses: {
        200: stream(
          "`x-vercel-ai-ui-message-stream: v1`; frames `start` (messageId `reply-<turn>`), `text-start`, `text-delta`, `text-end`, `data-step`, `data-tool-call`, `finish`, then `[DONE]`; each with an `id:` `RUN:N`, N increasing",
          "UI message stream chunks",
        ),
        400: error("bad input"),
        404: error("regenerate-message: no such thread"),
        409: error("the thread is busy (with --busy reject) or has ended"),
      },
    },
  },
  "/api/chat/{id}/stream": {
    get: {
      summary:
        "Resume the run Last-Event-ID names (RUN:N) as a UI message stream; without it, the run in progress; with 0, the latest run",
      parameters: [threadIdParam, lastEventIdParam],
      responses: {
        ...resumeRefusals,
        200: stream("the frames after Last-Event-ID (all of them without it)", "UI message stream chunks"),
        204: { description: "no thread, no run in progress, or nothing after Last-Event-ID" },
      },
    },
  },
};
