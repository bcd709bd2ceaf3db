/**
 * What a chat page asks of its thread besides sending to it: `GET /api/chat/:id/messages`, the
 * thread as the AI SDK's `UIMessage[]` (a page loaded again restores its chat from it), and
 * `POST /api/chat/:id/stop`, which stops the reply being written (a client that only closes its
 * request leaves the run going, since a disconnect must not cancel a resumable run).
 */
import { Hono } from "hono";
import { z } from "zod";
import type { ServerContext } from "../context.js";
import { threadIdOf } from "../http/request.js";
import { ownThread } from "../own-thread.js";
import { uiMessagesOf, type InFlight } from "../protocols/ui-messages.js";
import type { RunEvent } from "../runs/run-events.js";
import { turnJson } from "./threads.js";
import { isOver } from "../runs/run-events.js";
import { settledRun } from "../runs/settle-run.js";
import { answer, threadIdParam, ApiTurn, type ApiPaths } from "./openapi-schemas.js";

/** The user message of the thread's run in progress, if its turn is not committed yet. */
async function inFlight(ctx: ServerContext, threadId: string, version: number): Promise<InFlight | null> {
  const live = ctx.runs.liveOn(threadId);
  const start = live?.events[0]?.event as Extract<RunEvent, { type: "run-start" }> | undefined;
  const latest = start ? null : await ctx.store.latestRun(threadId);
  // A run whose process is gone (abandoned) is given the end it is owed: it is over then.
  const stored = latest && !isOver(latest) ? await settledRun(ctx.store, latest.id) : latest;
  const run = start
    ? { turn: start.turn, messageId: start.messageId, user: start.user, over: isOver(live!) }
    : stored && { ...stored, over: isOver(stored) };
  if (!run || run.over || run.user === null || run.turn <= version) return null;
  return { turn: run.turn, messageId: run.messageId, user: run.user };
}

export function chatThreadRoutes(ctx: ServerContext): Hono {
  const app = new Hono();

  // A chat that has sent nothing yet has no thread: its messages are none.
  app.get("/api/chat/:id/messages", async (c) => {
    const id = threadIdOf(c.req.param("id"));
    const info = await ownThread(ctx.store, ctx.served().name, id);
    if (!info) return c.json([]);
    return c.json(uiMessagesOf(await ctx.store.turns(id), await inFlight(ctx, id, info.version)));
  });

  app.post("/api/chat/:id/stop", async (c) => {
    const id = threadIdOf(c.req.param("id"));
    const build = ctx.served();
    if (!(await ownThread(ctx.store, build.name, id))) return c.body(null, 204);
    const stopped = await ctx.runs.stopThread(id, build);
    if (!stopped) return c.body(null, 204);
    return c.json({ runId: stopped.runId, turn: turnJson(stopped.turn, ctx.prices) });
  });

  return app;
}

export const chatThreadApi: ApiPaths = {
  "/api/chat/{id}/messages": {
    get: {
      summary:
        "The thread as the AI SDK's UIMessage[] (user messages with their ids, replies as reply-<turn>, the user message in flight last); stopped and replaced turns left out",
      parameters: [threadIdParam],
      responses: {
        200: answer(
          "the messages ([] for a chat with no thread)",
          z.array(
            z.object({
              id: z.string(),
              role: z.enum(["user", "assistant"]),
              parts: z.array(z.object({ type: z.literal("text"), text: z.string() })),
              metadata: z.object({ turn: z.int() }).optional(),
            }),
          ),
        ),
      },
    },
  },
  "/api/chat/{id}/stop": {
    post: {
      summary:
        "Stop the thread's run in progress: its model request aborted, its message kept as an interrupted turn (no reply, memory unchanged)",
      parameters: [threadIdParam],
      responses: {
        200: answer("what the stop kept", z.object({ runId: z.string().nullable(), turn: ApiTurn })),
        204: { description: "nothing was running (or no such thread)" },
      },
    },
  },
};
