/**
 * `POST /ag-ui` takes an AG-UI RunAgentInput and answers with the run's events as AG-UI events
 * (protocols/ag-ui.ts); `GET /ag-ui/:threadId/stream` resumes the thread's latest run after
 * `Last-Event-ID`, from any process on the store.
 *
 * The thread is the server's: `threadId` names it, the last message (a user message) is the turn,
 * and the messages before it, the client's `state`, `tools` and `context` are not trusted (the
 * conversation, its memory and its tools live on the server).
 *
 * The AG-UI events of a run are numbered 1, 2, 3, ... (the SSE `id:`), one number per AG-UI event,
 * not per run event (a run event may become several). The translation is made again from the
 * run's first event for every response, with the variables before and after the turn read from
 * the store at the turn's number, so the numbers are the same every time and a client that
 * reconnects with the last one it got is sent the rest, after the run as it stood at that number
 * (protocols/ag-ui-rejoin.ts), so that the stream starts as AG-UI clients expect.
 */
import { MessageSchema, RunAgentInputSchema } from "@ag-ui/core/schemas";
import { Hono } from "hono";
import { z } from "zod";
import type { ServerContext } from "../context.js";
import type { ServedBuild } from "../served-build.js";
import { badRequest, toHttpError } from "../http/errors.js";
import { jsonBody, keepableText, messageText, threadIdOf } from "../http/request.js";
import { lastChecked } from "../http/last-checked.js";
import type { SseFrame } from "../http/sse.js";
import { agentVariables, AgUiTranslator, type AgUiEvent, type Variables } from "../protocols/ag-ui.js";
import { AgUiRejoin } from "../protocols/ag-ui-rejoin.js";
import { RUN_STREAM_HEADERS } from "./runs.js";
import { isRunEnd } from "../runs/run-events.js";
import { eventId, isRunId, RUN_ID } from "../http/event-id.js";
import { eventBatchesOf, runIdOf, type RunSource } from "../runs/run-source.js";
import { resumeResponse, streamRun, type RunStream } from "./run-stream.js";
import {
  body,
  error,
  lastEventIdParam,
  refusals,
  resumeRefusals,
  ThreadId,
  type ApiPaths,
  stream,
} from "./openapi-schemas.js";

const Messages = lastChecked(MessageSchema);

/** What the route reads of a RunAgentInput (the rest is checked, not used). */
type AgUiInput = Pick<z.infer<typeof RunAgentInputSchema>, "threadId" | "runId" | "messages">;

/**
 * A RunAgentInput as the route reads it: every field checked with @ag-ui/core's schema but
 * `messages`, of which the last (the turn) is checked with its message schema and the others only
 * counted (http/last-checked.ts): AG-UI clients send the whole conversation every time.
 */
const AgUiRequest = z.custom<AgUiInput>().check((ctx) => {
  const body = ctx.value;
  const isObject = typeof body === "object" && body !== null && !Array.isArray(body);
  const fields = RunAgentInputSchema.safeParse(isObject ? { ...body, messages: [] } : body);
  const messages = isObject ? Messages.safeParse((body as { messages?: unknown }).messages) : undefined;
  const issues = [
    ...(fields.error?.issues ?? []),
    ...(messages?.error?.issues ?? []).map((issue) => ({ ...issue, path: ["messages", ...issue.path] })),
  ];
  for (const { message, path } of issues) ctx.issues.push({ code: "custom", message, path: [...path], input: body });
});

/** The user's turn: the text of the last message, which must be the user's; no messages at all is the agent's opening turn. */
function turnOf(messages: readonly unknown[], maxChars: number): { message: string | null; messageId?: string } {
  // Checked as an AG-UI message (AgUiRequest).
  const last = messages.at(-1) as { id: string; role: string; content?: unknown } | undefined;
  if (!last) return { message: null };
  const at = `messages[${messages.length - 1}]`;
  if (last.role !== "user")
    throw badRequest(
      `${at}.role: the last message is the turn, so it must be the user's (got "${last.role}")`,
      `${at}.role`,
    );
  const content = last.content;
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content) && content.every((p: { type?: string }) => p.type === "text")
        ? content.map((p: { text: string }) => p.text).join("")
        : null;
  if (text === null) throw badRequest(`${at}.content: only text can be a turn of this agent`, `${at}.content`);
  return {
    message: messageText(
      text,
      `${at}.content`,
      maxChars,
      "empty; send text, or no messages for the agent's opening turn",
    ),
    messageId: keepableText(last.id, `${at}.id`),
  };
}

/** The agent's variables after turn `turn` of the thread (0: before its first, the agent's initial ones). */
async function variablesAt(ctx: ServerContext, build: ServedBuild, threadId: string, turn: number): Promise<Variables> {
  const globals = (build.agent.graph.globals ?? {}) as Variables;
  return agentVariables(turn <= 0 ? null : await ctx.store.memoryAt(threadId, turn), globals);
}

/**
 * The run's AG-UI events as frames numbered from 1, those after `after` only. `runId` is the
 * AG-UI run id that RUN_STARTED and RUN_FINISHED name (the client's; by default the server's).
 */
async function* agUiFrames(
  ctx: ServerContext,
  build: ServedBuild,
  threadId: string,
  source: RunSource,
  runId: string | undefined,
  after: number,
  signal: AbortSignal,
): AsyncGenerator<SseFrame> {
  const translator = new AgUiTranslator({ threadId, ...(runId === undefined ? {} : { runId }) });
  const rejoin = after > 0 ? new AgUiRejoin() : null;
  let id = 0;
  const run = runIdOf(source);
  function* frames(events: AgUiEvent[]): Generator<SseFrame> {
    for (const e of events) {
      if (++id <= after) {
        rejoin?.skip(e);
        continue;
      }
      // Numbered as the last event the client had: a client cut off again resumes after the same one.
      if (id === after + 1)
        for (const r of rejoin?.events() ?? []) yield { id: eventId(run, after), data: JSON.stringify(r) };
      yield { id: eventId(run, id), data: JSON.stringify(e) };
    }
  }
  try {
    for await (const batch of eventBatchesOf(ctx, source, 0, signal)) {
      for (const { event } of batch) {
        // Read from the store at the turn's number, so they are the same whenever this is made (and
        // right for a message that waited for another run): at run-start, the variables after the
        // turn before this one (two before, when the run first made a new thread's opening); at
        // run-finish, after this one.
        const variables =
          event.type === "run-start"
            ? await variablesAt(ctx, build, threadId, event.turn - (event.opening ? 2 : 1))
            : event.type === "run-finish"
              ? await variablesAt(ctx, build, threadId, event.turn)
              : undefined;
        yield* frames(translator.translate(event, variables));
        if (isRunEnd(event)) return;
      }
    }
  } catch (err) {
    const { code, message } = toHttpError(err, ctx.store.where);
    yield* frames(translator.translate({ type: "run-error", code, message }));
  }
}

/** The AG-UI stream of the thread's runs; `runId`: the run id the client gave (its frames name it). */
function agUiStream(ctx: ServerContext, build: ServedBuild, threadId: string, runId: string | undefined): RunStream {
  return {
    frames: (source, after, signal) => agUiFrames(ctx, build, threadId, source, runId, after, signal),
    headers: RUN_STREAM_HEADERS,
    what: "AG-UI event",
  };
}

export function agUiRoutes(ctx: ServerContext): Hono {
  const app = new Hono();

  // Refusals (bad input, a busy or ended thread) are the API's JSON errors, sent before any event.
  app.post("/ag-ui", async (c) => {
    const build = ctx.served();
    const input = await jsonBody(c, AgUiRequest);
    const threadId = threadIdOf(input.threadId, "threadId");
    const turn = turnOf(input.messages, ctx.limits.maxMessageChars);
    // The client's run id, when it gives one a run can have, is the run's: it resumes by it.
    const runId = input.runId !== undefined && isRunId(input.runId) ? input.runId : undefined;
    const source = await ctx.runs.start(threadId, turn.message, turn.messageId, {
      build,
      ...(runId !== undefined && { runId }),
    });
    return streamRun(agUiStream(ctx, build, threadId, input.runId), source);
  });

  app.get("/ag-ui/:threadId/stream", async (c) => {
    const build = ctx.served();
    const threadId = threadIdOf(c.req.param("threadId"), "threadId");
    const runId = c.req.query("runId");
    // The run resumed is the one it names (or Last-Event-ID names), never another relabelled.
    if (runId !== undefined && !isRunId(runId))
      throw badRequest("runId: the AG-UI run id the POST gave (1 to 200 letters, digits and _ . -)", "runId");
    // Nothing to send is an empty stream, not 204: AG-UI clients read any 2xx answer as a stream, and one without a body fails.
    return resumeResponse(ctx, threadId, c.req.header("last-event-id"), agUiStream(ctx, build, threadId, runId), {
      ...(runId !== undefined && { runId }),
      nothing: () => new Response("", { status: 200, headers: RUN_STREAM_HEADERS }),
    });
  });

  return app;
}

export const agUiApi: ApiPaths = {
  "/ag-ui": {
    post: {
      summary:
        "AG-UI: a RunAgentInput in (threadId: the thread; the last message, the user's, is the turn; none: the agent's opening), AG-UI events out",
      requestBody: body(
        RunAgentInputSchema.meta({ description: "AG-UI RunAgentInput (checked with @ag-ui/core's schema)" }),
      ),
      responses: {
        200: stream(
          "`data:` AG-UI events: RUN_STARTED, STATE_SNAPSHOT, STEP_STARTED / STEP_FINISHED per node, TEXT_MESSAGE_START / CONTENT / END, STATE_DELTA (JSON Patch), RUN_FINISHED or RUN_ERROR; each with an `id:` `RUN:1`, `RUN:2`, ... per AG-UI event of the run (RUN: the POST's runId)",
          "AG-UI events",
        ),
        400: error("bad input"),
        ...refusals,
      },
    },
  },
  "/ag-ui/{threadId}/stream": {
    get: {
      summary:
        "Resume the run Last-Event-ID (RUN:N, the id of the last AG-UI event received) or runId names, as AG-UI events; with neither, a run in progress from RUN_STARTED",
      parameters: [
        { name: "threadId", in: "path", required: true, schema: ThreadId },
        lastEventIdParam,
        {
          name: "runId",
          in: "query",
          required: false,
          schema: z.string().regex(RUN_ID),
          description:
            "the AG-UI runId the POST gave: the run resumed (from its start without Last-Event-ID), named again in RUN_STARTED and RUN_FINISHED",
        },
      ],
      responses: {
        ...resumeRefusals,
        200: stream(
          "the AG-UI events after Last-Event-ID, numbered as the first stream numbered them, after the run as it stood there (RUN_STARTED, STATE_SNAPSHOT, the open step and text message, each numbered Last-Event-ID); empty when there is nothing to send (no thread, no run in progress, nothing after Last-Event-ID)",
          "AG-UI events",
        ),
        400: error("a bad Last-Event-ID or runId"),
      },
    },
  },
};
